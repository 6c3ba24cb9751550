/**
 * `loadout verify` on a terminal prints every problem line; through a pipe, the first three of
 * each check and how many more (issue 57, point 15: a newcomer's five undeclared files showed as
 * three). The terminal is a real pseudo-terminal: util-linux `script` runs the CLI in one.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, runProcess } from '../helpers/cli.js';
import { cliNodeArgs } from '../helpers/cli-command.js';
import { writeLoadout } from '../helpers/loadouts.js';
import { makeTempDir } from '../helpers/temp.js';

/** A catalogue whose loadout `a` has five files it does not declare: five listing problems. */
function catalogue(): string {
  const root = makeTempDir();
  writeLoadout(root, { id: 'a' });
  for (let i = 1; i <= 5; i++) writeFileSync(join(root, `loadouts/a/extra${i}.md`), `# Extra ${i}\n`);
  return root;
}

const undeclared = (out: string): string[] => out.match(/extra\d\.md:1: present but not declared/gu) ?? [];

/** `sh -c` quoting of one argument. */
const quote = (arg: string): string => `'${arg.replaceAll("'", "'\\''")}'`;

describe('loadout verify and the terminal', () => {
  it('prints the first three listing problems and how many more through a pipe', async () => {
    const result = await runCli(['verify', 'a'], catalogue());
    expect(result.code).toBe(1);
    expect(undeclared(result.stdout)).toHaveLength(3);
    expect(result.stdout).toContain('… and 2 more (use --json for all)');
  });

  it('prints every listing problem on a terminal', async () => {
    const root = catalogue();
    const command = [process.execPath, ...cliNodeArgs(), 'verify', 'a'].map(quote).join(' ');
    // script -q (no banner) -e (its exit code is the command's) -c <command>, typescript to /dev/null.
    const result = await runProcess('script', ['-qec', command, '/dev/null'], root, { ...process.env, CI: 'true', TERM: 'dumb' });
    expect(result.code, result.stderr).toBe(1);
    expect(undeclared(result.stdout)).toHaveLength(5);
    expect(result.stdout).not.toContain('more (use --json for all)');
  });
});
