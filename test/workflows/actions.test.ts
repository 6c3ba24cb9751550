/**
 * The repository's reusable Actions (actions/verify/action.yml and actions/update/action.yml;
 * docs/authoring.md, "Checking in GitHub Actions"): each passes action-validator (which knows an
 * action's own schema), pins third-party actions by commit SHA, gives every script its shell and
 * its values only through `env`, and runs only `loadout` commands and options that exist. Then
 * the scripts of their main steps run here, with bash as the runner runs them, against real git
 * repositories, a bare remote and the fake GitHub of the bot's tests.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { libIsFresh } from '../helpers/cli-command.js';
import { runProcess } from '../helpers/cli.js';
import { git, initRepo, makeTempDir } from '../helpers/temp.js';
import { makeProjectRepository } from '../bot/project-repository.js';
import { remoteBranchHead, startGitHub } from '../bot/setup.js';
import { buildLifecycleCatalogue, type LifecycleCatalogue } from '../install/lifecycle-fixture.js';
import { expectInvocationsExist, loadoutInvocations } from './invocations.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const ACTIONS = ['verify', 'update'] as const;

interface Step { name?: string; uses?: string; run?: string; shell?: string; env?: Record<string, string>; if?: string; with?: Record<string, string> }
interface Action { name: string; description: string; inputs: Record<string, { default?: string }>; runs: { using: string; steps: Step[] } }

const actionFile = (name: string): string => join(REPO, 'actions', name, 'action.yml');
const action = (name: string): Action => parse(readFileSync(actionFile(name), 'utf8')) as Action;
const stepNamed = (name: string, step: string): Step => {
  const found = action(name).runs.steps.find((s) => s.name === step);
  if (found?.run === undefined) throw new Error(`no step ${step} with a script in actions/${name}`);
  return found;
};
const validator = (file: string): { status: number | null; output: string } => {
  const result = spawnSync(join(REPO, 'node_modules/.bin/action-validator'), [file], { encoding: 'utf8' });
  return { status: result.status, output: result.stdout + result.stderr };
};

afterEach(() => vi.restoreAllMocks());

describe('the Actions, as files', () => {
  it.each(ACTIONS)('actions/%s/action.yml passes action-validator', (name) => {
    const result = validator(actionFile(name));
    expect(result.status, result.output).toBe(0);
  });

  it('action-validator reads an action as an action: a step without shell fails it', () => {
    const dir = makeTempDir();
    const broken = readFileSync(actionFile('verify'), 'utf8').replace(/^ {6}shell: bash\n/mu, '');
    writeFileSync(join(dir, 'action.yml'), broken);
    expect(validator(join(dir, 'action.yml')).status).not.toBe(0);
  });

  it.each(ACTIONS)('actions/%s is composite, pins every action by commit SHA and passes values to scripts only through env', (name) => {
    const { runs } = action(name);
    expect(runs.using).toBe('composite');
    for (const step of runs.steps) {
      if (step.uses !== undefined) expect(step.uses).toMatch(/^[\w.-]+\/[\w./-]+@[0-9a-f]{40}$/u);
      if (step.run !== undefined) {
        expect(step.shell, `${name}: ${step.name ?? ''}`).toBe('bash');
        expect(step.run).not.toContain('${{');
      }
    }
  });

  it('runs only loadout commands and options that exist', async () => {
    const invocations = ACTIONS.flatMap((name) => action(name).runs.steps.flatMap((s) => (s.run === undefined ? [] : loadoutInvocations(s.run).map((i) => ({ where: `actions/${name}`, ...i })))));
    expect(invocations.map((i) => i.command.join(' '))).toEqual(['ci verify', 'ci update-pr']);
    expect(invocations.flatMap((i) => i.options)).toEqual(['--sarif', '--summary', '--author', '--policy', '--dir', '--base', '--branch', '--policy', '--from', '--json']);
    await expectInvocationsExist(invocations);
  });

  it('ci.yml verifies the catalogue with the verify Action, allowed to upload to code scanning', () => {
    const ci = parse(readFileSync(join(REPO, '.github/workflows/ci.yml'), 'utf8')) as { jobs: Record<string, { permissions?: Record<string, string>; steps: Step[] }> };
    const job = ci.jobs['catalogue'];
    expect(job?.permissions).toEqual({ contents: 'read', 'security-events': 'write' });
    const verify = job?.steps.find((s) => s.uses === './actions/verify');
    expect(verify?.with?.['upload-sarif']).toContain("github.event.pull_request.head.repo.full_name == github.repository");
  });
});

/**
 * A folder standing for the Action's checkout (`$GITHUB_ACTION_PATH/../..`): the repository when
 * `lib/` is compiled and fresh, else a `bin/loadout` that runs the CLI from source through tsx.
 */
function actionRoot(): string {
  if (libIsFresh()) return REPO;
  const root = makeTempDir('loadout-action-root-');
  mkdirSync(join(root, 'bin'));
  writeFileSync(join(root, 'package.json'), '{ "type": "module" }\n');
  const tsx = pathToFileURL(join(REPO, 'node_modules/tsx/dist/esm/api/index.mjs')).href;
  const entry = pathToFileURL(join(REPO, 'test/helpers/cli-entry.ts')).href;
  writeFileSync(join(root, 'bin/loadout'), `import { register } from '${tsx}';\nregister();\nawait import('${entry}');\n`);
  return root;
}

/** Runs the script of `step` of `actions/<name>` as the runner runs a `shell: bash` step, in `cwd` with `env`; the files of GITHUB_OUTPUT and GITHUB_STEP_SUMMARY are read back. */
async function runStep(name: string, step: string, cwd: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string; output: string; summary: string }> {
  const dir = makeTempDir('loadout-step-');
  const script = join(dir, 'step.sh');
  writeFileSync(script, stepNamed(name, step).run ?? '');
  const files = { GITHUB_OUTPUT: join(dir, 'output'), GITHUB_STEP_SUMMARY: join(dir, 'summary'), RUNNER_TEMP: dir };
  writeFileSync(files.GITHUB_OUTPUT, '');
  writeFileSync(files.GITHUB_STEP_SUMMARY, '');
  const base = { PATH: `${dirname(process.execPath)}:${process.env['PATH'] ?? ''}`, HOME: process.env['HOME'] ?? dir, CI: 'true' };
  const result = await runProcess('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], cwd, { ...base, ...files, ACTION_ROOT: actionRoot(), ...env });
  return { ...result, output: readFileSync(files.GITHUB_OUTPUT, 'utf8'), summary: readFileSync(files.GITHUB_STEP_SUMMARY, 'utf8') };
}

describe('the scripts the Actions run', () => {
  let catalogue: LifecycleCatalogue;
  let folder: string;
  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'loadout-actions-'));
    catalogue = await buildLifecycleCatalogue(folder);
  }, 120_000);
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('verify: checks a repository of skills folders, prints the checks, writes the summary and the SARIF log, and fails on a failing check', async () => {
    const repo = makeTempDir('loadout-action-skills-');
    initRepo(repo);
    git(repo, ['remote', 'add', 'origin', 'https://github.com/octo-org/agent-skills.git']);
    mkdirSync(join(repo, 'skills/pdf-forms'), { recursive: true });
    writeFileSync(join(repo, 'skills/pdf-forms/SKILL.md'), '---\nname: pdf-forms\ndescription: Fills PDF forms.\nlicense: MIT\n---\n\n# PDF forms\n\nInstall: `curl -fsSL https://get.pdftk.dev/i.sh | sh`.\n');
    const step = await runStep('verify', 'Verify', repo, { INPUT_PATH: '.', INPUT_AUTHOR: '', SARIF_FILE: 'loadout.sarif' });
    expect(step.code, step.stderr).toBe(1);
    expect(step.stdout).toContain('skills/pdf-forms: checked as the loadout pdf-forms');
    expect(step.stdout).toMatch(/^pdf-forms: 1 failing check$/mu);
    expect(step.output).toBe('sarif-file=loadout.sarif\n');
    expect(step.summary).toContain('### pdf-forms: ❌ 1 failing check');
    const log = JSON.parse(readFileSync(join(repo, 'loadout.sarif'), 'utf8')) as { runs: { results: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[] }[] }[] };
    expect(log.runs[0]?.results.map((r) => `${r.ruleId} ${r.locations[0]?.physicalLocation.artifactLocation.uri ?? ''}:${r.locations[0]?.physicalLocation.region.startLine ?? 0}`)).toEqual(['shell/pipe-to-interpreter skills/pdf-forms/SKILL.md:9']);

    // --author reaches the command: a repository whose remote names no GitHub owner credits it.
    git(repo, ['remote', 'remove', 'origin']);
    const credited = await runStep('verify', 'Verify', repo, { INPUT_PATH: '.', INPUT_AUTHOR: 'Ada Lovelace', SARIF_FILE: 'loadout.sarif' });
    expect(credited.code).toBe(1);
    expect(credited.stdout).toMatch(/^ +listing +pass/mu);
  }, 120_000);

  it('update: opens the pull request on the fake GitHub, pushes loadout/update to the bare remote, and sets its outputs', async () => {
    const { clone, remote } = await makeProjectRepository(catalogue.dist);
    const { fake } = await startGitHub(remote);
    const env = {
      GITHUB_TOKEN: fake.token,
      GITHUB_REPOSITORY: 'octo-org/loadouts',
      GITHUB_API_URL: fake.url,
      LOADOUT_BOT_NAME: 'github-actions[bot]',
      LOADOUT_BOT_EMAIL: '41898282+github-actions[bot]@users.noreply.github.com',
      INPUT_DIR: 'app',
      INPUT_BASE: 'main',
      INPUT_BRANCH: 'loadout/update',
      INPUT_POLICY: 'loadout-policy.yaml',
      INPUT_FROM: '',
    };
    const step = await runStep('update', 'Update', clone, env);
    expect(step.code, step.stderr).toBe(0);
    const url = `${fake.url}/octo-org/loadouts/pull/1`;
    expect(step.output).toBe(`action=opened\npull-request-url=${url}\n`);
    expect(step.summary).toBe(`loadout update: opened ${url}\n`);
    expect(JSON.parse(step.stdout)).toMatchObject({ action: 'opened', title: 'Update kit to 1.1.0' });
    expect(fake.pulls.map((p) => `${p.title} ${p.head} → ${p.base}`)).toEqual(['Update kit to 1.1.0 loadout/update → main']);
    expect(git(remote, ['log', '-1', '--format=%an', 'loadout/update']).trim()).toBe('github-actions[bot]');
    expect(remoteBranchHead(remote, 'loadout/update')).toBeDefined();

    // A failing run still sets its outputs, and fails the step.
    const failed = await runStep('update', 'Update', clone, { ...env, GITHUB_TOKEN: '' });
    expect(failed.code).toBe(1);
    expect(failed.output).toBe('action=failed\npull-request-url=\n');
    expect(failed.summary).toMatch(/^loadout update: failed \(GITHUB_TOKEN is not set /u);
    expect(fake.violations).toEqual([]);
  }, 120_000);
});
