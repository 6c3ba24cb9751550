/**
 * What a catalogue that is not signed can send in a loadout's files (issue 53), installed from a
 * real built tree served over HTTP on 127.0.0.1 whose files an attacker replaced:
 * - point 4: `@` imports and links that climb out of the project, whatever their spelling, are
 *   never written pointing outside it (an `@` token becomes a code span, a link's destination
 *   `#`), and the install goes on;
 * - point 8: a version over the `size` check's limits (32 KB a file, 128 KB in all, 30 files) is
 *   refused before any of its files is read or laid out, naming the file, its size and the
 *   limit; a size the versions document does not declare is judged once read. Nothing is written.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/catalogue/vocabulary.js';
import { ConsumerError } from '../../src/install/errors.js';
import { installLoadout } from '../../src/install/install.js';
import { findDanglingLinks } from '../helpers/link-resolution.js';
import { buildCleanDist, listProject, makeProject, makeSite, replaceRaw, serveSite, sha, type Site } from './hostile-fixture.js';

let clean: Awaited<ReturnType<typeof buildCleanDist>>;
beforeAll(async () => {
  clean = await buildCleanDist();
});
afterAll(() => clean?.remove());

/** The error `promise` fails with. */
async function refusal(promise: Promise<unknown>): Promise<ConsumerError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConsumerError);
  return error as ConsumerError;
}

/** Adds `count` rule files of `bytes` bytes each to kit 1.0.0 (raw files written, entries declared). */
function addRules(s: Site, count: number, bytes: number): void {
  const style = s.file('rules/style.md');
  for (let i = 0; i < count; i++) {
    const path = `rules/extra-${i}.md`;
    const content = `${'x'.repeat(Math.max(0, bytes - 1))}\n`;
    mkdirSync(join(s.dist, 'raw/kit/1.0.0/rules'), { recursive: true });
    writeFileSync(join(s.dist, 'raw/kit/1.0.0', path), content);
    s.doc.versions[0]?.files.push({ ...style, path, sha256: sha(content), bytes: Buffer.byteLength(content), raw_url: style.raw_url.replace('rules/style.md', path) });
  }
}

describe('references that leave the project (issue 53, point 4)', () => {
  it('are written so that they point nowhere outside it, in every spelling, and the rest installs', async () => {
    const s = makeSite(clean.dist);
    const agents = [
      '# Kit', // 1
      '', // 2
      '@../../.aws/credentials', // 3
      'Keys: @./../../../.ssh/id_rsa and @../.env.', // 4
      'See [keys](%2e%2e/%2e%2e/.ssh/id_rsa), [env](..\\.env), [npm](&period;&period;/.npmrc) and <a href=../../x>x</a>.', // 5
      '**@docs/%2e%2e/%2e%2e/secret**', // 6
      'Mail me@example.com; types from @types/node.', // 7
      '',
    ].join('\n');
    replaceRaw(s, 'AGENTS.md', agents);
    s.save();
    const served = await serveSite(s.site);
    const project = makeProject();
    const outcome = await installLoadout({ from: served.base, id: 'kit', agent: 'claude-code', dir: project });
    expect(outcome.installed).toBe(true);
    const installed = readFileSync(join(project, 'AGENTS.md'), 'utf8');
    for (const token of ['@../../.aws/credentials', '@./../../../.ssh/id_rsa', '@../.env', '@docs/%2e%2e/%2e%2e/secret']) expect(installed, token).toContain(`\` ${token} \``);
    expect(installed).toContain('See [keys](#), [env](#), [npm](#) and <a href=#>x</a>.');
    expect(installed).toContain('Mail me@example.com; types from @types/node.');
    // No reference of any installed file leads out of the project (the checker of test/install/links-resolve.test.ts).
    expect(findDanglingLinks(project).filter((d) => d.problem === 'outside')).toEqual([]);
  });
});

describe('a version over the size limits (issue 53, point 8)', () => {
  it('refuses a file over 32 KB before reading any file, naming it, its size and the limit', async () => {
    const s = makeSite(clean.dist);
    replaceRaw(s, 'AGENTS.md', `# Kit\n\n${'<img src'.repeat(4_200)}\n`);
    s.save();
    const served = await serveSite(s.site);
    const project = makeProject();
    const error = await refusal(installLoadout({ from: served.base, id: 'kit', agent: 'claude-code', dir: project }));
    expect(error.name).toBe('InvalidCatalogue');
    expect(error.message).toContain(`AGENTS.md is ${s.file('AGENTS.md').bytes} bytes (expected at most ${LIMITS.fileBytes} bytes, 32 KB)`);
    expect(served.requests.filter((r) => r.includes('/raw/'))).toEqual([]);
    expect(listProject(project)).toEqual([]);
  });

  it('refuses files that total over 128 KB, and more than 30 files', async () => {
    const total = makeSite(clean.dist);
    addRules(total, 5, 30 * 1024);
    total.save();
    const project = makeProject();
    expect((await refusal(installLoadout({ from: total.dist, id: 'kit', agent: 'cursor', dir: project }))).message).toMatch(/its files total \d+ bytes \(expected at most 131072 bytes, 128 KB\)/u);
    const many = makeSite(clean.dist);
    addRules(many, LIMITS.files, 10);
    many.save();
    expect((await refusal(installLoadout({ from: many.dist, id: 'kit', agent: 'cursor', dir: project }))).message).toContain(`it has ${LIMITS.files + 4} files (expected at most ${LIMITS.files})`);
    expect(listProject(project)).toEqual([]);
  });

  it('judges a size the versions document does not declare once the file is read', async () => {
    const s = makeSite(clean.dist);
    replaceRaw(s, 'AGENTS.md', `${'a'.repeat(LIMITS.fileBytes)}\n`);
    delete (s.file('AGENTS.md') as { bytes?: number }).bytes;
    s.save();
    const project = makeProject();
    expect((await refusal(installLoadout({ from: s.dist, id: 'kit', agent: 'claude-code', dir: project }))).message).toContain(`AGENTS.md is ${LIMITS.fileBytes + 1} bytes`);
    expect(listProject(project)).toEqual([]);
  });
});
