/**
 * Issue 57, point 8: `install --dry-run` for six agents printed 1,542 lines (the whole composed
 * AGENTS.md once per agent) and `update --dry-run` 962. A shared file is printed once, as a diff
 * against what is there; each agent gets a line; `--verbose` prints everything as before. The
 * backup line names the files it copied.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLISHED_AGENTS } from '../../src/catalogue/vocabulary.js';
import { runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp.js';
import { buildLifecycleCatalogue, type LifecycleCatalogue } from '../install/lifecycle-fixture.js';

let folder: string;
let catalogue: LifecycleCatalogue;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'loadout-output-'));
  catalogue = await buildLifecycleCatalogue(folder);
}, 120_000);

afterAll(() => rmSync(folder, { recursive: true, force: true }));

const count = (text: string, needle: string): number => text.split(needle).length - 1;
const AGENTS = PUBLISHED_AGENTS.join(',');

describe('what install and update print for several agents', () => {
  it('install --dry-run: a line per agent, each shared file once as a diff; --verbose as before', async () => {
    const project = makeTempDir();
    const short = await runCli(['install', 'kit', '--agent', AGENTS, '--from', catalogue.dist, '--dir', project, '--version', '1.0.0', '--dry-run'], project);
    expect(short.code, short.stderr).toBe(0);
    for (const agent of PUBLISHED_AGENTS) expect(count(short.stdout, `would install kit 1.0.0 for ${agent} from `)).toBe(1);
    expect(count(short.stdout, 'composed AGENTS.md (write: add kit@1.0.0)')).toBe(1);
    expect(count(short.stdout, '+++ b/AGENTS.md\tafter')).toBe(1);
    // AGENTS.md, CLAUDE.md and GEMINI.md each get one block, each shown once.
    expect(count(short.stdout, '+<!-- loadout:begin kit@1.0.0 -->')).toBe(3);
    const verbose = await runCli(['install', 'kit', '--agent', AGENTS, '--from', catalogue.dist, '--dir', project, '--version', '1.0.0', '--dry-run', '--verbose'], project);
    expect(verbose.code).toBe(0);
    // As before: every agent's files, and the composed AGENTS.md for each.
    expect(count(verbose.stdout, '| <!-- loadout:begin kit@1.0.0 -->')).toBeGreaterThanOrEqual(PUBLISHED_AGENTS.length);
    expect(short.stdout.split('\n').length).toBeLessThan(verbose.stdout.split('\n').length);
  });

  it('update --dry-run: the changelog once for every agent, each diff once, a context line per agent', async () => {
    const project = makeTempDir();
    const install = await runCli(['install', 'kit', '--agent', 'claude-code,cursor,codex', '--from', catalogue.dist, '--dir', project, '--version', '1.0.0'], project);
    expect(install.code, install.stderr).toBe(0);
    const update = await runCli(['update', '--dir', project, '--dry-run'], project);
    expect(update.code, update.stderr).toBe(0);
    expect(update.stdout.match(/would update kit 1\.0\.0 → 1\.1\.0 for (?:claude-code|cursor|codex), (?:claude-code|cursor|codex), (?:claude-code|cursor|codex)\n/gu)).toHaveLength(1);
    expect(count(update.stdout, 'Changelog:')).toBe(1);
    expect(count(update.stdout, '--- a/AGENTS.md')).toBe(1);
    for (const agent of ['claude-code', 'cursor', 'codex']) expect(count(update.stdout, `Context for ${agent}: `)).toBe(1);
    const verbose = await runCli(['update', '--dir', project, '--dry-run', '--verbose'], project);
    expect(count(verbose.stdout, 'Changelog:')).toBe(3);
  });
});
