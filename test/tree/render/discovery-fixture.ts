/**
 * A small catalogue with skills for the Agent Skills discovery tests, built by the real build
 * in a real git repository:
 * - `alpha` (featured, updated 2026-01-01): `shared` (SKILL.md and two references, one of them
 *   an HTML template), `solo` (a one-file skill);
 * - `beta` (updated 2026-10-01): `shared`, `beta-only`;
 * - `gamma` (updated 2026-11-01): `beta-only` (so the newer gamma wins it), `shared`;
 * - `plain`: no skills.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCatalogue } from '../../../src/tree/build.js';
import { baseFiles, writeLoadout, type TestFile } from '../../helpers/loadouts.js';

// Not ../helpers/temp.js: that module needs a running vitest, and scripts reuse this file.
function git(dir: string, args: string[], date?: string): void {
  const env = { ...process.env, GIT_AUTHOR_NAME: 'Test Author', GIT_AUTHOR_EMAIL: 'test@example.com', GIT_COMMITTER_NAME: 'Test Author', GIT_COMMITTER_EMAIL: 'test@example.com', GIT_CONFIG_NOSYSTEM: '1' };
  execFileSync('git', args, { cwd: dir, env: date === undefined ? env : { ...env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date }, stdio: 'ignore' });
}

/** A built discovery fixture; `remove` deletes it. */
export interface DiscoveryFixture {
  root: string;
  dist: string;
  /** Builds again (incrementally unless `clean`); throws when the build refuses. */
  rebuild(clean?: boolean): Promise<void>;
  remove(): void;
}

/** The files of skill `name` of loadout `owner`: SKILL.md plus `references`. */
export function skillFiles(owner: string, name: string, references: { rel: string; content: string }[] = []): TestFile[] {
  const description = `The ${name} skill as ${owner} publishes it. Use it when the test needs ${name}.`;
  const links = references.map((r) => `- [${r.rel}](${r.rel})\n`).join('');
  return [
    { path: `skills/${name}/SKILL.md`, role: 'skill', skill: name, description: `Entry of ${name}`, content: `---\nname: ${name}\ndescription: ${description}\nlicense: MIT\nmetadata:\n  owner: ${owner}\n---\n\n# ${name} (${owner})\n\nFollow these steps.\n${links}` },
    ...references.map((r) => ({ path: `skills/${name}/${r.rel}`, role: 'reference', skill: name, description: `${r.rel} of ${name}`, content: r.content })),
  ];
}

/** An HTML template a skill may legitimately ship: it must never run on the catalogue's origin. */
export const HTML_TEMPLATE = '<!doctype html>\n<title>Template</title>\n<p id="x">Fill in the report.</p>\n';

function loadout(root: string, id: string, updated: string, featured: boolean, files: TestFile[]): void {
  writeLoadout(root, { id, title: `The ${id} loadout`, files: [...baseFiles(`The ${id} loadout`), ...files], manifest: { updated, featured } });
}

/** Writes, commits and builds the fixture into a new temporary folder. */
export async function buildDiscoveryFixture(baseUrl = 'http://localhost:8787'): Promise<DiscoveryFixture> {
  const root = mkdtempSync(join(tmpdir(), 'loadout-discovery-'));
  const remove = (): void => rmSync(root, { recursive: true, force: true });
  const dist = join(root, 'dist');
  const rebuild = async (clean = false): Promise<void> => {
    const result = await buildCatalogue({ root, out: dist, baseUrl, now: new Date('2026-11-22T00:00:00Z'), clean });
    if (!result.written) throw new Error(`discovery fixture refused: ${JSON.stringify(result.runs.filter((r) => result.refused.includes(r.source.id)).map((r) => r.diagnostics))}`);
  };
  try {
    git(root, ['init', '-q', '-b', 'main']);
    loadout(root, 'alpha', '2026-01-01', true, [
      ...skillFiles('alpha', 'shared', [
        { rel: 'references/guide.md', content: '# Guide\n\nStep one, then step two.\n' },
        { rel: 'templates/report.html', content: HTML_TEMPLATE },
      ]),
      ...skillFiles('alpha', 'solo'),
    ]);
    loadout(root, 'beta', '2026-10-01', false, [...skillFiles('beta', 'shared', [{ rel: 'references/notes.md', content: '# Notes\n' }]), ...skillFiles('beta', 'beta-only')]);
    loadout(root, 'gamma', '2026-11-01', false, [...skillFiles('gamma', 'beta-only', [{ rel: 'references/more.md', content: '# More\n' }]), ...skillFiles('gamma', 'shared')]);
    loadout(root, 'plain', '2026-05-01', false, []);
    git(root, ['add', '-A']);
    git(root, ['commit', '-q', '-m', 'four loadouts'], '2026-11-01T10:00:00Z');
    await rebuild();
    return { root, dist, rebuild, remove };
  } catch (error) {
    remove();
    throw error;
  }
}
