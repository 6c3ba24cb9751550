/** `loadout dev [--port 8787] [--host 127.0.0.1] [--out dist]`: build, serve and watch `loadouts/` (src/dev/session.ts). */
import type { Agent } from '../../catalogue/vocabulary.js';
import type { DevReport } from '../../dev/report.js';
import { startDevSession, type DevSession } from '../../dev/session.js';
import type { ContextCost } from '../../tree-format/record.js';
import type { Write } from '../report.js';
import { printableLine } from '../terminal-text.js';

/** Options of `loadout dev`. */
export interface DevCommandOptions {
  root: string;
  out: string;
  baseUrl: string;
  host: string;
  port: number;
}

/** Starts the session; prints each build's report on `out` (findings also on `err`) and where it serves. */
export async function devCommand(options: DevCommandOptions, out: Write, err: Write): Promise<DevSession> {
  const session = await startDevSession({ ...options, onBuild: (report) => printReport(report, out, err), onWatchError: (error) => err(formatWatchStop(error)) });
  out(`loadout dev: serving ${options.out} at ${session.url}, watching loadouts/ (Ctrl-C stops)\n`);
  return session;
}

/**
 * The terminal's warning when watching `loadouts/` stopped (dev/watch.ts): the error's message
 * on one line, through terminal-text.ts `printableLine` (it may name a folder of the catalogue).
 */
export function formatWatchStop(error: Error): string {
  return `loadout: warning: watching loadouts/ stopped: ${printableLine(error.message)} (trying again; once it watches, git tells what changed meanwhile)\n`;
}

/**
 * The terminal's report of a build: one line for the build, then per loadout its state, each
 * failing check with its details, each notice, and its context cost per agent (tokens at
 * session start + on demand, DESIGN.md section 8).
 */
export function formatDevReport(report: DevReport): { out: string; err: string } {
  let out = `loadout dev: ${report.written ? 'built' : 'refused'} in ${report.ms} ms${report.loadouts.length === 0 ? '' : `: ${report.loadouts.map((l) => `${l.id} ${l.state}`).join(', ')}`}\n`;
  let err = '';
  for (const loadout of report.loadouts) {
    for (const check of loadout.checks) {
      if (check.status === 'fail') err += `loadout: ${loadout.id}: ${check.id} fails: ${check.summary}\n${check.details.map((d) => `  ${d}\n`).join('')}`;
      else for (const detail of check.details) if (detail.startsWith('notice: ')) out += `  ${loadout.id}: ${check.id}: ${detail}\n`;
    }
    if (loadout.context !== undefined) out += `  ${loadout.id}: context ${formatContext(loadout.context)}\n`;
  }
  for (const warning of report.warnings) err += `loadout: warning: ${warning}\n`;
  return { out, err };
}

function printReport(report: DevReport, out: Write, err: Write): void {
  const text = formatDevReport(report);
  out(text.out);
  if (text.err !== '') err(text.err);
}

function formatContext(context: Record<Agent, ContextCost>): string {
  return Object.entries(context).map(([agent, cost]) => `${agent} ${cost.always.tokens}+${cost.on_demand.tokens}`).join(', ') + ' tokens (at start + on demand)';
}
