/**
 * Every safety rule runs in linear time (DESIGN.md section 7; STYLE.md habit 14): each attack
 * string of pumps.ts, at about 25 KB and at 100 KB, goes through every rule of the safety
 * check that reads a file's text (shell, network, administrator rights, hidden text, the
 * warnings around a match). Four times the input may take at most 12 times as long (a
 * quadratic rule takes 16 times, an exponential one never ends), and 100 KB at most a
 * generous ceiling on a loaded machine.
 */
import { describe, expect, it } from 'vitest';
import { findAdminRights } from '../../../src/verify/safety/admin-rights.js';
import { findHiddenInstructions, findInvisibleCharacters } from '../../../src/verify/safety/hidden-text.js';
import { findNetworkUse } from '../../../src/verify/safety/network.js';
import { prepareScanText } from '../../../src/verify/safety/scan-text.js';
import { findRiskyShell } from '../../../src/verify/safety/shell-rules.js';
import { PUMPS, pumpedFile, repetitionsFor, type Pump, type PumpPlace } from './pumps.js';

/** Bytes of the large input. */
const LARGE = 100_000;
/** Largest ratio of the time at 4n to the time at n. */
const RATIO = 12;
/** Times under this are noise: the ratio is taken against at least this many milliseconds. */
const FLOOR_MS = 5;
/** Ceiling for the large input, in milliseconds. */
const CEILING_MS = 1500;

/** Runs every text rule of the safety check over one file, as checks/safety.ts does. */
function scanFile(path: string, text: string): number {
  const scan = prepareScanText(path, text);
  const shell = findRiskyShell(scan);
  const found = [...shell, ...findAdminRights(scan, new Set(shell.map((f) => f.line ?? 0))), ...findInvisibleCharacters(scan), ...findHiddenInstructions(scan)];
  return found.length + (findNetworkUse(scan) === undefined ? 0 : 1);
}

const ratio = (t: { small: number; large: number }): number => t.large / Math.max(t.small, FLOOR_MS);

/** Milliseconds of one scan of the pumped file at about `bytes`. */
function timeScan(pump: Pump, place: PumpPlace, bytes: number): number {
  const { path, text } = pumpedFile(pump, place, repetitionsFor(pump, bytes));
  const start = performance.now();
  scanFile(path, text);
  return performance.now() - start;
}

/**
 * The fastest of three scans at n and at 4n, taken in turns so that a burst of load on the
 * machine slows both sizes alike. Up to three tries: a linear rule passes one of them, where
 * a super-linear one fails them all.
 */
function measure(pump: Pump, place: PumpPlace): { small: number; large: number } {
  let best = { small: Infinity, large: Infinity };
  for (let attempt = 0; attempt < 3; attempt++) {
    const times = { small: Infinity, large: Infinity };
    for (let i = 0; i < 3; i++) {
      times.small = Math.min(times.small, timeScan(pump, place, LARGE / 4));
      times.large = Math.min(times.large, timeScan(pump, place, LARGE));
    }
    if (attempt === 0 || ratio(times) < ratio(best)) best = times;
    if (ratio(best) < RATIO && best.large < CEILING_MS) break;
  }
  return best;
}

const cases = PUMPS.flatMap((pump) => pump.places.map((place) => ({ pump, place, name: `${pump.rule}: ${JSON.stringify(pump.prefix)} + ${JSON.stringify(pump.pump)}×n + ${JSON.stringify(pump.suffix)} (${place})` })));

describe('the safety rules run in linear time on pumped inputs', () => {
  it('has pumps for every kind of rule', () => {
    const rules = new Set(PUMPS.map((p) => p.rule.split('/')[0]));
    for (const kind of ['shell', 'network', 'hidden-text', 'admin-rights', 'warnings', 'generic']) expect(rules).toContain(kind);
  });

  it.each(cases)('$name', ({ pump, place }) => {
    timeScan(pump, place, 2_000); // compiles the expressions and warms the code up
    const { small, large } = measure(pump, place);
    expect(large, `${large.toFixed(1)} ms at 100 KB`).toBeLessThan(CEILING_MS);
    expect(ratio({ small, large }), `${small.toFixed(1)} ms at 25 KB, ${large.toFixed(1)} ms at 100 KB`).toBeLessThan(RATIO);
  });
});
