/**
 * Reading the `loadout` commands a workflow's or an Action's scripts run, and asking the CLI
 * whether each command and option exists (test/workflows/workflows.test.ts and actions.test.ts).
 */
import { expect, vi } from 'vitest';
import { main } from '../../src/cli/main.js';

/** Groups whose commands take a second word (`loadout submissions pr`, `loadout ci verify`). */
const GROUPS = new Set(['submissions', 'keys', 'db', 'ci']);

/** Every `loadout …` invocation in a script: the command words and the options given. */
export function loadoutInvocations(script: string): { command: string[]; options: string[] }[] {
  const found: { command: string[]; options: string[] }[] = [];
  for (const line of script.replace(/\\\n/gu, ' ').split('\n')) {
    const match = /(?:^|[\s;&|(])(?:npx\s+)?loadout\s+([^|;&>#]*)/u.exec(line);
    if (match === null) continue;
    const words = (match[1] ?? '').trim().split(/\s+/u);
    const command = words.slice(0, GROUPS.has(words[0] ?? '') ? 2 : 1);
    const options = words.map((w) => w.replace(/^\$\{\w+:\+/u, '')).filter((w) => w.startsWith('--')).map((w) => w.split('=')[0] ?? w);
    found.push({ command, options });
  }
  return found;
}

/** `loadout <command> --help` in-process: its exit code and the help text. */
export async function help(command: string[]): Promise<{ code: number; text: string }> {
  let text = '';
  const write = (chunk: string | Uint8Array): boolean => ((text += chunk.toString()), true);
  vi.spyOn(process.stdout, 'write').mockImplementation(write);
  vi.spyOn(process.stderr, 'write').mockImplementation(write);
  const code = await main(['node', 'loadout', ...command, '--help']);
  vi.restoreAllMocks();
  return { code, text };
}

/** Fails (by `expect`) unless each invocation's command exists and takes each of its options. */
export async function expectInvocationsExist(invocations: readonly { where: string; command: string[]; options: string[] }[]): Promise<void> {
  for (const { where, command, options } of invocations) {
    const { code, text } = await help(command);
    expect(code, `${where}: loadout ${command.join(' ')}`).toBe(0);
    expect(text, `${where}: loadout ${command.join(' ')}`).toContain(`Usage: loadout ${command.join(' ')}`);
    for (const option of options) expect(text, `${where}: loadout ${command.join(' ')} ${option}`).toMatch(new RegExp(`(?:^|[\\s,])${option}(?:[\\s,=<[]|$)`, 'mu'));
  }
}
