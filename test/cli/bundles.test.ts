/**
 * `loadout validate` and `loadout verify` over bundles (issue 56, point 1; src/cli/commands/
 * validate.ts, verify.ts, src/tree/bundles/check-bundles.ts), run as the real CLI in a real git
 * repository whose loadouts have several versions: an unknown loadout, a range that does not
 * read and a range no published version satisfies are findings that name their line; a range
 * met only by a version in git history passes; a schema violation and an id that is not the
 * folder's name name theirs; the ids named choose what is checked.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { bumpLoadout, writeBundle } from '../helpers/bundle-catalogue.js';
import { writeLoadout } from '../helpers/loadouts.js';
import { commitAll, initRepo, makeTempDir } from '../helpers/temp.js';

/** Line by line, so that the expected line numbers can be read off. */
const TEAM_STACK = [
  'id: team-stack', // 1
  'title: Team Stack', // 2
  'summary: The loadouts a team installs together, at the versions it checked.', // 3
  'description: Everything the team works with, each loadout at a range of versions.', // 4
  'version: 1.0.0', // 5
  'license: MIT', // 6
  'author:', // 7
  '  name: Team', // 8
  'loadouts:', // 9
  '  - id: alpha', // 10
  '    range: "~1.0.0"', // 11: met by 1.0.0, which only git history holds
  '  - id: alpah', // 12: no such loadout
  '    range: ^1', // 13
  '  - id: beta', // 14
  '    range: "=>1"', // 15: not a range
  '  - id: gamma', // 16
  '    range: ^3', // 17: gamma has 1.0.0 only
  '',
].join('\n');

const OTHER = ['id: not-other', 'title: Other Stack', 'extends: team-stack', 'summary: Another set of loadouts that goes together well.', 'description: Another set of loadouts, for the tests of the schema.', 'version: 1.0.0', 'license: MIT', 'author:', '  name: Team', 'loadouts:', '  - id: beta', '    range: "*"', ''].join('\n');

/** A git repository with alpha (1.0.0, 1.1.0, then 2.0.0 in three commits), beta and gamma (1.0.0), and the bundles. */
function catalogue(): string {
  const root = makeTempDir();
  initRepo(root);
  for (const id of ['alpha', 'beta', 'gamma']) writeLoadout(root, { id });
  commitAll(root, 'three loadouts', '2026-01-01T10:00:00Z');
  bumpLoadout(root, 'alpha', '1.1.0');
  commitAll(root, 'alpha 1.1.0', '2026-02-01T10:00:00Z');
  bumpLoadout(root, 'alpha', '2.0.0');
  commitAll(root, 'alpha 2.0.0', '2026-03-01T10:00:00Z');
  writeBundle(root, 'team-stack', TEAM_STACK);
  writeBundle(root, 'other', OTHER);
  return root;
}

describe('loadout validate and verify over bundles', () => {
  it('names the line of an unknown loadout, a range that does not read and a range no published version meets, and exits 1', async () => {
    const root = catalogue();
    const result = await runCli(['validate'], root);
    expect(result.code).toBe(1);
    const lines = result.stderr.split('\n').filter((l) => l.includes('bundles/team-stack/'));
    expect(lines).toEqual([
      'loadout: bundles/team-stack/bundle.yaml:12: names "alpah", which is no loadout of this catalogue (expected a folder name of loadouts/, such as alpha) (at /loadouts/1/id)',
      'loadout: bundles/team-stack/bundle.yaml:15: the range of beta, "=>1", is not a semver range (expected a semver range such as ^1.2, ~2.1.0, >=1 <3 or 1.4.0) (at /loadouts/2/range) (hint: node-semver reads the range as npm does: github.com/npm/node-semver#ranges.)',
      'loadout: bundles/team-stack/bundle.yaml:17: the range "^3" of gamma allows none of its published versions (1.0.0) (expected a range that one of them meets) (at /loadouts/3/range) (hint: Widen the range, or publish a version of gamma that it allows.)',
    ]);
    // ~1.0.0 of alpha is met by 1.0.0, a version of its git history: no finding at line 11.
    expect(result.stderr).not.toContain('bundle.yaml:11:');
    expect(result.stdout).toBe('3 loadouts valid, 2 of 2 bundles invalid\n');
  });

  it('names the line of a field the schema does not have and of an id that is not the folder\'s name', async () => {
    const root = catalogue();
    const result = await runCli(['validate', 'other'], root);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'loadout: bundles/other/bundle.yaml:3: /extends unknown field "extends" (expected only the fields the schema lists)\n',
    );
    const fixed = OTHER.replace('extends: team-stack\n', '');
    writeBundle(root, 'other', fixed);
    const again = await runCli(['validate', 'other'], root);
    expect(again.stderr).toBe('loadout: bundles/other/bundle.yaml:1: /id is "not-other" (expected "other", the folder\'s name)\n');
    // Only the bundle named was checked.
    expect(again.stdout).toBe('1 of 1 bundles invalid\n');
  });

  it('prints a block per bundle after the loadouts\' tables, and the findings in --json as entries of kind bundle', async () => {
    const root = catalogue();
    writeBundle(root, 'other', OTHER.replace('extends: team-stack\n', '').replace('id: not-other', 'id: other'));
    const table = await runCli(['verify', 'other', 'team-stack', 'beta'], root);
    expect(table.code).toBe(1);
    expect(table.stdout).toContain('beta: ok');
    expect(table.stdout).toContain('bundle other: ok\n');
    expect(table.stdout).toContain('bundle team-stack: 3 problems\n  bundles/team-stack/bundle.yaml:12: names "alpah"');
    const json = await runCli(['verify', '--json'], root);
    const entries = JSON.parse(json.stdout) as { id: string; kind?: string; valid?: boolean; errors?: { line: number; pointer: string }[]; verification?: unknown }[];
    expect(entries.filter((e) => e.kind === undefined).map((e) => e.id)).toEqual(['alpha', 'beta', 'gamma']);
    expect(entries.filter((e) => e.kind === 'bundle').map((e) => [e.id, e.valid, e.errors?.map((d) => [d.line, d.pointer])])).toEqual([
      ['other', true, []],
      ['team-stack', false, [[12, '/loadouts/1/id'], [15, '/loadouts/2/range'], [17, '/loadouts/3/range']]],
    ]);
    const markdown = await runCli(['verify', '--markdown', 'team-stack'], root);
    expect(markdown.stdout).toContain('### bundle team-stack: ❌ 3 problems');
  });

  it('passes a catalogue whose bundles are right, and refuses a loadout named twice and a bundle id that is a loadout\'s', async () => {
    const root = catalogue();
    writeBundle(root, 'team-stack', TEAM_STACK.replace('alpah', 'beta').replace('"=>1"', '">=1"').replace('^3', '"*"'));
    const duplicate = await runCli(['validate', 'team-stack'], root);
    expect(duplicate.stderr).toBe('loadout: bundles/team-stack/bundle.yaml:14: names loadout beta again (first at line 12) (expected each loadout once) (at /loadouts/2/id)\n');
    writeBundle(root, 'team-stack', TEAM_STACK.replace('  - id: alpah\n    range: ^1\n', '').replace('"=>1"', '">=1"').replace('^3', '"*"'));
    writeBundle(root, 'other', OTHER.replace('extends: team-stack\n', '').replace('id: not-other', 'id: other'));
    expect(await runCli(['validate'], root)).toMatchObject({ code: 0, stderr: '', stdout: '3 loadouts valid, 2 bundles valid\n' });
    writeBundle(root, 'beta', OTHER.replace('extends: team-stack\n', '').replace('id: not-other', 'id: beta'));
    // `beta` names a loadout folder: the id is a loadout's, and `validate` of all finds the clash.
    const all = await runCli(['validate'], root);
    expect(all.code).toBe(1);
    expect(all.stderr).toContain('bundles/beta/bundle.yaml:1: /id "beta" is also a loadout\'s id');
  });
});
