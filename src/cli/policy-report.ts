/**
 * How the consumer commands show what a policy did (docs/policy.md): the violations it finds,
 * each on its own line beginning with its rule, and the versions its `min_release_age` holds back
 * with the time they become eligible. Everything shown may quote a catalogue (ids, package names,
 * hosts, commands) and goes through `printableLine`.
 */
import type { HeldVersion } from '../install/policy-gate.js';
import type { PolicyViolation } from '../policy/policy.js';
import { printableLine } from './terminal-text.js';

/** `loadout: the policy <where> refuses:` and one line per violation (its message, which begins with the rule). */
export function formatViolations(where: string, violations: readonly PolicyViolation[]): string {
  return `loadout: the policy ${printableLine(where)} refuses:\n${violations.map((v) => `  ${printableLine(v.message)}\n`).join('')}`;
}

/** `<what> 1.1.0 is held back by min_release_age (<where>) until 2026-02-27T00:00:00.000Z`. */
export function formatHeld(what: string, held: HeldVersion, where: string): string {
  const until = held.eligible_at === 'never' ? 'for good: its catalogue gives it no date' : `until ${held.eligible_at}`;
  return `${printableLine(what)} ${printableLine(held.version)} is held back by min_release_age (${printableLine(where)}) ${until}`;
}

/** The status column's words for a held version: `1.1.0 held until 2026-02-27`. */
export function formatHeldStatus(held: HeldVersion): string {
  return `${printableLine(held.version)} held ${held.eligible_at === 'never' ? '(no date)' : `until ${held.eligible_at.slice(0, 10)}`}`;
}
