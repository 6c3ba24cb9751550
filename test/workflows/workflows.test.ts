/**
 * The GitHub Actions workflows (docs/deploying.md "GitHub Actions"): each passes a real
 * workflow linter (action-validator, against SchemaStore's workflow schema), pins third-party
 * actions by commit SHA, declares its permissions, keeps `${{ … }}` expressions out of shell
 * scripts (they reach a script only through `env`, so no value can inject a command), and runs
 * only `loadout` commands and options that exist.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { expectInvocationsExist, help, loadoutInvocations } from './invocations.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const DIR = join(REPO, '.github/workflows');
const FILES = readdirSync(DIR).filter((f) => /\.ya?ml$/u.test(f)).sort();

interface Step { uses?: string; run?: string; env?: Record<string, string> }
interface Job { permissions?: unknown; steps?: Step[] }
interface Workflow { permissions?: unknown; jobs: Record<string, Job> }

const workflow = (file: string): Workflow => parse(readFileSync(join(DIR, file), 'utf8')) as Workflow;
const steps = (w: Workflow): Step[] => Object.values(w.jobs).flatMap((j) => j.steps ?? []);

afterEach(() => vi.restoreAllMocks());

describe('GitHub Actions workflows', () => {
  it('has the four workflows of the maintainers\' loop', () => {
    expect(FILES).toEqual(['ci.yml', 'loadouts.yml', 'publish.yml', 'submissions.yml']);
  });

  it.each(FILES)('%s passes action-validator', (file) => {
    const result = spawnSync(join(REPO, 'node_modules/.bin/action-validator'), [join(DIR, file)], { encoding: 'utf8' });
    expect(result.status, result.stdout + result.stderr).toBe(0);
  });

  it.each(FILES)('%s pins every action by commit SHA', (file) => {
    for (const step of steps(workflow(file))) {
      if (step.uses === undefined || step.uses.startsWith('./') || step.uses.startsWith('docker://')) continue;
      expect(step.uses, file).toMatch(/^[\w.-]+\/[\w./-]+@[0-9a-f]{40}$/u);
    }
  });

  it.each(FILES)('%s declares permissions and never write-all', (file) => {
    const w = workflow(file);
    for (const [name, job] of Object.entries(w.jobs)) {
      const permissions = job.permissions ?? w.permissions;
      expect(permissions, `${file} job ${name}`).toBeTypeOf('object');
      expect(JSON.stringify(permissions)).not.toContain('write-all');
    }
  });

  it.each(FILES)('%s passes expressions to scripts only through env', (file) => {
    for (const step of steps(workflow(file))) if (step.run !== undefined) expect(step.run, file).not.toContain('${{');
  });

  it('runs only loadout commands and options that exist', async () => {
    const invocations = FILES.flatMap((file) => steps(workflow(file)).flatMap((s) => (s.run === undefined ? [] : loadoutInvocations(s.run).map((i) => ({ file, ...i })))));
    expect(invocations.map((i) => i.command.join(' '))).toEqual(expect.arrayContaining(['validate', 'verify', 'build', 'publish', 'submissions pr', 'submissions sync']));
    await expectInvocationsExist(invocations.map((i) => ({ where: i.file, ...i })));
  });

  it('finds invocations and options in scripts, and a misspelt option fails', async () => {
    expect(loadoutInvocations('npx loadout verify $IDS --markdown >> "$GITHUB_STEP_SUMMARY"')).toEqual([{ command: ['verify'], options: ['--markdown'] }]);
    expect(loadoutInvocations('echo x && npx loadout submissions pr --remote origin \\\n  --json')).toEqual([{ command: ['submissions', 'pr'], options: ['--remote', '--json'] }]);
    expect((await help(['build'])).text).not.toMatch(/(?:^|[\s,])--bukket(?:[\s,=<[]|$)/mu);
    expect((await help(['nonsense'])).text).not.toContain('Usage: loadout nonsense');
  });
});
