/**
 * `security.verdict` (spec "Security": `clean` or `flagged`) follows the safety check's
 * findings of both kinds (docs/authoring.md "What the checks look for"): `flagged` when the
 * check fails or passes with notices, `clean` when it has neither; the record's verdict is that
 * one.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Capabilities } from '../../src/tree-format/capabilities.js';
import { describe, expect, it } from 'vitest';
import { buildRecord } from '../../src/tree/render/record.js';
import type { Manifest } from '../../src/catalogue/manifest.js';
import { decodeUtf8 } from '../../src/catalogue/source.js';
import { checkCatalogue } from '../../src/verify/catalogue.js';
import type { CheckRun } from '../../src/verify/run.js';
import type { CheckResult } from '../../src/tree-format/verification.js';
import { noticesOf, securityVerdict, summariseVerification } from '../../src/verify/verification.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/checks/safety', import.meta.url));

async function recordOf(fixture: string): Promise<ReturnType<typeof buildRecord>> {
  const [run] = (await checkCatalogue({ root: join(FIXTURES, fixture) }, [])) as [CheckRun];
  const texts = new Map([...run.source.files].map(([path, bytes]) => [path, decodeUtf8(bytes) ?? '']));
  const verification = summariseVerification(run.results, { checkedAt: new Date('2026-11-22T00:00:00Z'), commit: 'working-tree', contentCurrent: true });
  return buildRecord({ baseUrl: 'http://localhost:8787', manifest: run.manifest as Manifest, texts, verification, published: undefined, updated: undefined, capabilities: run.capabilities as Capabilities });
}

const safety = (status: CheckResult['status'], details: string[] = []): CheckResult => ({ id: 'safety', name: 'Safety scan', status, summary: '', details });

describe('security verdict', () => {
  it('is flagged for a failing safety check or one with notices, clean for neither, and absent when it did not run', () => {
    expect(securityVerdict([safety('fail', ['loadouts/a/AGENTS.md:3: "sudo" runs a command as root'])])).toBe('flagged');
    expect(securityVerdict([safety('pass', ['notice: loadouts/a/AGENTS.md:3: "brew install jq" installs system packages'])])).toBe('flagged');
    expect(securityVerdict([safety('pass', ['3 files scanned'])])).toBe('clean');
    expect(securityVerdict([safety('skip')])).toBeUndefined();
    expect(securityVerdict([])).toBeUndefined();
    expect(noticesOf(safety('pass', ['a', 'notice: b:1: c']))).toEqual(['b:1: c']);
  });

  it('is flagged in the record of a loadout whose safety check passes with notices', async () => {
    const record = await recordOf('pass-system-packages-and-rights-prose');
    expect(record.verification.status).toBe('verified');
    expect(record.verification.checks.find((c) => c.id === 'safety')?.status).toBe('pass');
    expect(record.security).toMatchObject({ scanned: true, verdict: 'flagged' });
  });

  it('is clean in the record of a loadout without findings, and flagged for a failing one', async () => {
    expect((await recordOf('pass-declared-network-and-script')).security).toMatchObject({ scanned: true, verdict: 'clean' });
    expect((await recordOf('fail-network-in-prose-span')).security).toMatchObject({ scanned: true, verdict: 'flagged' });
  });
});
