/**
 * The record's `security` block follows the safety check (spec "Security": `verdict` is `clean`
 * or `flagged`; docs/authoring.md "What the checks look for": a finding sets `flagged`).
 * `loadout build` refuses a loadout with a failing check (DESIGN.md section 4), so the static
 * catalogue only ever holds clean records; the verdict is decided here, from the run, for any
 * record built from one.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildRecord } from '../../../src/tree/render/record.js';
import { decodeUtf8 } from '../../../src/catalogue/source.js';
import type { Manifest } from '../../../src/catalogue/manifest.js';
import { checkCatalogue } from '../../../src/verify/catalogue.js';
import type { CheckRun } from '../../../src/verify/run.js';
import { summariseVerification } from '../../../src/verify/verification.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/checks/safety', import.meta.url));

async function recordOf(fixture: string): Promise<ReturnType<typeof buildRecord>> {
  const [run] = (await checkCatalogue({ root: join(FIXTURES, fixture) }, [])) as [CheckRun];
  const texts = new Map([...run.source.files].map(([path, bytes]) => [path, decodeUtf8(bytes) ?? '']));
  const verification = summariseVerification(run.results, { checkedAt: new Date('2026-11-22T00:00:00Z'), commit: 'working-tree', contentCurrent: true });
  return buildRecord({ baseUrl: 'http://localhost:8787', manifest: run.manifest as Manifest, texts, verification, published: undefined, updated: undefined });
}

describe('security verdict', () => {
  it('is flagged when the safety check finds something', async () => {
    const record = await recordOf('fail-curl-pipe-sh');
    expect(record.security).toMatchObject({ scanned: true, verdict: 'flagged' });
    expect(record.verification.status).toBe('failed');
  });

  it('is clean when the safety check passes', async () => {
    const record = await recordOf('pass-declared-network-and-script');
    expect(record.security).toMatchObject({ scanned: true, verdict: 'clean' });
  });
});
