/**
 * Every rule id written in `src/verify/` has a description in verify/rules.ts, which code
 * scanning shows beside its findings (`loadout verify --format sarif`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { describeRule, RULES } from '../../src/verify/rules.js';

const VERIFY = fileURLToPath(new URL('../../src/verify/', import.meta.url));

/** The rule ids written as literals in `src/verify/`: `rule: 'x/y'`, and the shell rules' `id: 'shell/…'`. */
function ruleIdsInSource(): Set<string> {
  const ids = new Set<string>();
  const files = readdirSync(VERIFY, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  for (const file of files) {
    const text = readFileSync(join(VERIFY, file), 'utf8');
    for (const m of text.matchAll(/\brule: '([^']+)'|\bid: '([a-z-]+\/[a-z0-9-]+)'/gu)) ids.add(m[1] ?? m[2] ?? '');
  }
  return ids;
}

describe('the rules of the checks', () => {
  it('describes every rule id written in src/verify', () => {
    const ids = ruleIdsInSource();
    // The reader finds the rules it must: the scan is not empty by mistake.
    expect([...ids]).toEqual(expect.arrayContaining(['credentials', 'shell/pipe-to-interpreter', 'shell/tls-off', 'network/undeclared', 'checks/timeout']));
    expect([...ids].filter((id) => RULES[id] === undefined)).toEqual([]);
  });

  it('describes a check without finer rules by its name', () => {
    expect(describeRule('size', 'Size limits')).toEqual({ description: 'Size limits', severity: 'blocking' });
    expect(describeRule('shell/admin-rights', 'Safety scan').severity).toBe('notice');
  });
});
