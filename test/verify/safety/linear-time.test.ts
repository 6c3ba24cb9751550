/**
 * Every safety rule runs in linear time (DESIGN.md section 7; STYLE.md habit 14): each attack
 * string of pumps.ts, at about 25 KB and at 100 KB, goes through every rule of the safety
 * check that reads a file's text (shell, network, administrator rights, hidden text, the
 * warnings around a match). Four times the input may take at most 12 times the CPU time (a
 * quadratic rule takes 16 times, an exponential one never ends; the timing:
 * test/helpers/linear-time.ts).
 */
import { describe, expect, it } from 'vitest';
import { findAdminRights } from '../../../src/verify/safety/admin-rights.js';
import { findHiddenInstructions, findInvisibleCharacters } from '../../../src/verify/safety/hidden-text.js';
import { findNetworkUse } from '../../../src/verify/safety/network.js';
import { prepareScanText } from '../../../src/verify/safety/scan-text.js';
import { findRiskyShell } from '../../../src/verify/safety/shell-rules.js';
import { PUMPS, pumpedFile, repetitionsFor, type Pump, type PumpPlace } from './pumps.js';
import { growthRatio, measureGrowth, RATIO, timed } from '../../helpers/linear-time.js';

/** Runs every text rule of the safety check over one file, as checks/safety.ts does. */
function scanFile(path: string, text: string): number {
  const scan = prepareScanText(path, text);
  const shell = findRiskyShell(scan);
  const found = [...shell, ...findAdminRights(scan, new Set(shell.map((f) => f.line ?? 0))), ...findInvisibleCharacters(scan), ...findHiddenInstructions(scan)];
  return found.length + (findNetworkUse(scan) === undefined ? 0 : 1);
}

/** Milliseconds of one scan of the pumped file at about `bytes`. */
function timeScan(pump: Pump, place: PumpPlace, bytes: number): number {
  const { path, text } = pumpedFile(pump, place, repetitionsFor(pump, bytes));
  return timed(() => scanFile(path, text));
}

const cases = PUMPS.flatMap((pump) => pump.places.map((place) => ({ pump, place, name: `${pump.rule}: ${JSON.stringify(pump.prefix)} + ${JSON.stringify(pump.pump)}×n + ${JSON.stringify(pump.suffix)} (${place})` })));

describe('the safety rules run in linear time on pumped inputs', () => {
  it('has pumps for every kind of rule', () => {
    const rules = new Set(PUMPS.map((p) => p.rule.split('/')[0]));
    for (const kind of ['shell', 'network', 'hidden-text', 'admin-rights', 'warnings', 'generic']) expect(rules).toContain(kind);
  });

  it.each(cases)('$name', ({ pump, place }) => {
    const { small, large } = measureGrowth((bytes) => timeScan(pump, place, bytes));
    expect(growthRatio({ small, large }), `${small.toFixed(1)} ms at 25 KB, ${large.toFixed(1)} ms at 100 KB`).toBeLessThan(RATIO);
  });
});
