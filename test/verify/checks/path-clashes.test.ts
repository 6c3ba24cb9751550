/**
 * The `listing` check refuses the same paths as the submissions API (src/catalogue/file-path.ts):
 * two paths that differ only in case (one file on macOS and Windows), a path that is also
 * another's folder, control, bidirectional and line-separator characters, and segments over 255
 * bytes, so `loadout verify` agrees with a 422.
 */
import { describe, expect, it } from 'vitest';
import { checkCatalogue } from '../../../src/verify/catalogue.js';
import { baseFiles, testManifest, writeLoadout, type TestFile } from '../../helpers/loadouts.js';
import { makeTempDir } from '../../helpers/temp.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';

async function listingOf(files: TestFile[], extraEntries: Record<string, unknown>[] = []): Promise<{ status: string; details: string[] }> {
  const root = makeTempDir();
  const all = [...baseFiles('Test clash'), ...files];
  const dir = writeLoadout(root, { id: 'clash', title: 'Test clash', files: all });
  if (extraEntries.length > 0) {
    const manifest = testManifest({ id: 'clash', title: 'Test clash', files: all });
    writeFileSync(join(dir, 'loadout.yaml'), stringify({ ...manifest, files: [...(manifest['files'] as unknown[]), ...extraEntries] }));
  }
  const [run] = await checkCatalogue({ root }, []);
  const listing = run?.results.find((r) => r.id === 'listing');
  return { status: listing?.status ?? 'missing', details: listing?.details ?? [] };
}

describe('listing: paths that cannot be written together', () => {
  it('fails two paths that differ only in case, naming both', async () => {
    const listing = await listingOf([
      { path: 'rules/Style.md', role: 'rules', content: '# A\n' },
      { path: 'rules/style.md', role: 'rules', content: '# B\n' },
    ]);
    expect(listing.status).toBe('fail');
    expect(listing.details.join('\n')).toMatch(/\/files\/4\/path "rules\/style\.md" and "rules\/Style\.md" differ only in case/u);
  });

  it('fails a declared path that is also the folder of another', async () => {
    const listing = await listingOf([{ path: 'rules/a.md', role: 'rules', content: '# A\n' }], [{ path: 'rules/a.md/b.md', role: 'rules', description: 'nested' }]);
    expect(listing.status).toBe('fail');
    expect(listing.details.join('\n')).toMatch(/\/files\/3\/path "rules\/a\.md" is a file, but "rules\/a\.md\/b\.md" needs a folder of that name/u);
  });

  it('fails a declared path with U+009B or U+2028, and a segment over 255 bytes', async () => {
    const listing = await listingOf([], [
      { path: 'rules/a\u009b.md', role: 'rules', description: 'csi' },
      { path: 'rules/a\u2028.md', role: 'rules', description: 'line separator' },
      { path: `rules/${'n'.repeat(256)}.md`, role: 'rules', description: 'long' },
    ]);
    const details = listing.details.join('\n');
    expect(details).toMatch(/contains U\+009B/u);
    expect(details).toMatch(/contains U\+2028/u);
    expect(details).toMatch(/has a segment of 259 bytes/u);
  });

  it('passes distinct paths', async () => {
    expect((await listingOf([{ path: 'rules/a.md', role: 'rules', content: '# A\n' }, { path: 'rules/ab.md', role: 'rules', content: '# B\n' }])).status).toBe('pass');
  });
});
