/**
 * The catalogue's own loadouts are real content written to pass: `loadout verify` over
 * `loadouts/` must raise no false alarm.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkCatalogue, passed } from '../../src/verify/catalogue.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

describe('loadouts/', () => {
  it('passes every check, with no finding in any check, blocking or notice', async () => {
    const runs = await checkCatalogue({ root: REPO }, []);
    expect(runs.length).toBeGreaterThanOrEqual(9);
    for (const run of runs) {
      expect(passed(run), `${run.source.id}: ${run.diagnostics.map((d) => `${d.file}:${d.line ?? ''} ${d.message}`).join('; ')}`).toBe(true);
      expect(run.diagnostics, run.source.id).toEqual([]);
      // No notice either: the catalogue's own records are published with security.verdict clean.
      expect((run.findings ?? []).map((f) => `${f.file}:${f.line ?? ''} ${f.message}`), run.source.id).toEqual([]);
    }
  });
});
