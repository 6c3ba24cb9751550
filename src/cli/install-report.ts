/**
 * What the life-cycle commands (install, outdated, update, uninstall, status) share in the
 * terminal: the scope from `--dir` / `--global`, and context cost as one line.
 */
import { homedir } from 'node:os';
import type { ContextCost } from '../layout/context-cost.js';
import { projectScope, userScope, type InstallScope } from '../install/project/scope.js';

/** The scope of `--global` (the home folder, `HOME`) or else the project folder `dir`. */
export function scopeOf(options: { dir: string; global: boolean }): InstallScope {
  return options.global ? userScope(homedir()) : projectScope(options.dir);
}

const number = (n: number): string => n.toLocaleString('en-US');

/** `always 1,234 bytes (~309 tokens); on demand 5,678 bytes (~1,420 tokens)`. */
export function formatContext(cost: ContextCost): string {
  return `always ${number(cost.always.bytes)} bytes (~${number(cost.always.tokens)} tokens); on demand ${number(cost.on_demand.bytes)} bytes (~${number(cost.on_demand.tokens)} tokens)`;
}

/** `always ~309 → ~400 tokens (+91); on demand …`, or the new cost alone when the old one is unknown. */
export function formatContextChange(before: ContextCost | null, after: ContextCost): string {
  if (before === null) return formatContext(after);
  const delta = after.always.tokens - before.always.tokens;
  const sign = delta > 0 ? '+' : delta < 0 ? '−' : '±';
  return `always ~${number(before.always.tokens)} → ~${number(after.always.tokens)} tokens (${sign}${number(Math.abs(delta))}); on demand ~${number(before.on_demand.tokens)} → ~${number(after.on_demand.tokens)} tokens`;
}

/** Tokens are estimated at 4 bytes each (`layout/context-cost.ts`). */
export const CONTEXT_NOTE = 'tokens estimated at 4 bytes each';
