/**
 * The consumer's guide (docs/installing.md) writes commands a consumer has (issue 36, points 7
 * and 16): no shell example runs `npx loadout` (which, outside the catalogue's repository or a
 * project with the package, asks the registry for another package), every `npx -y
 * loadout-cli@<version>` names the package's version, and the CI drift gate needs Node and the
 * dependency-free CLI only, no checkout of the catalogue and no `npm ci`. The gate's commands
 * are run on the packed CLI (test/helpers/packed-cli.ts): `status` fails a project with nothing
 * installed and passes one with an install.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { makeTempDir } from '../helpers/temp.js';
import { useTarballFixture } from '../cli/tarball-fixture.js';

const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const GUIDE = read('docs/installing.md');
const VERSION = (JSON.parse(read('packages/cli/package.json')) as { version: string }).version;
const PACKAGE = `npx -y loadout-cli@${VERSION}`;

/** The fenced code blocks of `markdown` in `language`, as their text. */
const blocks = (markdown: string, language: string): string[] => [...markdown.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, 'gmu'))].map((m) => m[1] ?? '');

const fixture = useTarballFixture();

describe('docs/installing.md, for a consumer', () => {
  it('runs no shell example as `npx loadout`, and names the package at its version', () => {
    const lines = blocks(GUIDE, 'sh').flatMap((b) => b.split('\n'));
    expect(lines.filter((line) => line.startsWith('npx loadout '))).toEqual([]);
    const versions = [...GUIDE.matchAll(/npx -y loadout-cli@([\w.-]+)/gu)].map((m) => m[1]);
    expect(versions.length).toBeGreaterThan(5);
    expect(new Set(versions)).toEqual(new Set([VERSION]));
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
