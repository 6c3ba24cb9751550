/**
 * The consumer's guide (docs/installing.md) writes commands a consumer has (issue 36, points 7
 * and 16; issue 57, point 2): no shell example runs `npx loadout` (which, outside the
 * catalogue's repository or a project with the package, asks the registry for another
 * package), and none runs the npm registry's `loadout-cli@<version>`, which answers 404 until
 * the package is published (the guide names it in prose, with `<version>`): the examples and
 * the CI drift gate run the catalogue's own CLI. The gate needs Node and the dependency-free
 * CLI only, no checkout of the catalogue and no `npm ci`. The gate's commands are run on the
 * packed CLI (test/helpers/packed-cli.ts): `status` fails a project with nothing installed and
 * passes one with an install.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { makeTempDir } from '../helpers/temp.js';
import { useTarballFixture } from '../cli/tarball-fixture.js';

const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const GUIDE = read('docs/installing.md');
/** The catalogue's own CLI, as the guide's examples run it. */
const PACKAGE = 'npx -y https://catalogue.example/cli/loadout-latest.tgz';

/** The fenced code blocks of `markdown` in `language`, as their text. */
const blocks = (markdown: string, language: string): string[] => [...markdown.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, 'gmu'))].map((m) => m[1] ?? '');

const fixture = useTarballFixture();

describe('docs/installing.md, for a consumer', () => {
  it('runs no shell example as `npx loadout` nor from the registry, and the catalogue\'s own CLI from the catalogue it names', () => {
    const lines = [...blocks(GUIDE, 'sh'), ...blocks(GUIDE, 'yaml')].flatMap((b) => b.split('\n'));
    expect(lines.filter((line) => line.startsWith('npx loadout '))).toEqual([]);
    expect(lines.filter((line) => line.includes('loadout-cli@'))).toEqual([]);
    // In prose, the registry's command names no version that may not exist.
    expect([...GUIDE.matchAll(/loadout-cli@([^\s`]+)/gu)].map((m) => m[1]).filter((v) => v !== '<version>')).toEqual([]);
    const own = lines.filter((line) => line.includes(PACKAGE));
    expect(own.length).toBeGreaterThan(5);
    for (const line of own) {
      const from = /--from (\S+)/u.exec(line)?.[1];
      if (from !== undefined) expect(from, line).toBe('https://catalogue.example');
    }
  });

  it('gives a CI drift gate that needs Node and the CLI only, whose commands work', async () => {
    const gate = blocks(GUIDE, 'yaml').find((b) => b.includes('status'));
    expect(gate).toBeDefined();
    const steps = (parse(gate ?? '') as { jobs: { drift: { steps: { uses?: string; with?: Record<string, unknown>; run?: string }[] } } }).jobs.drift.steps;
    expect(steps.filter((s) => s.with?.['repository'] !== undefined)).toEqual([]);
    const runs = steps.map((s) => s.run).filter((r): r is string => r !== undefined);
    expect(runs.some((r) => r.includes('npm ci'))).toBe(false);
    expect(runs.every((r) => r.startsWith(`${PACKAGE} `))).toBe(true);
    const status = runs[0]?.slice(PACKAGE.length + 1).split(' ') ?? [];
    expect(status).toEqual(['status']);
    const project = makeTempDir();
    expect((await fixture.cli.run(status, project)).code).toBe(1);
    expect((await fixture.cli.run(['install', 'kit', '--agent', 'cursor', '--from', fixture.catalogue.dist], project)).code).toBe(0);
    expect((await fixture.cli.run(status, project)).code).toBe(0);
  }, 60_000);
});
