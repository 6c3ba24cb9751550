/**
 * What TOML cannot hold of a loadout's JSON values, for Codex's `.codex/config.toml` (TOML 1.0,
 * toml.io/en/v1.0.0): there is no null, and integers are 64-bit ("Arbitrary 64-bit signed
 * integers (from −2^63 to 2^63−1) should be accepted and handled losslessly"; Codex reads the
 * file with the Rust `toml` crate, whose integers are `i64`, so a larger one fails the whole
 * file). The installer leaves a null out of the table and refuses an integer beyond that range
 * (`install/compose/mcp-servers.ts`); the `mcp` check reports both, the second as blocking, so
 * that verify and install agree (issue 53, point 13). Pure.
 */

/** The smallest and largest integers TOML holds. */
export const TOML_INTEGER_RANGE = { min: -(2n ** 63n), max: 2n ** 63n - 1n } as const;

/** True when `value` is an integer (a number without fraction, or a bigint) outside {@link TOML_INTEGER_RANGE}. */
export function isIntegerBeyondToml(value: unknown): boolean {
  const big = typeof value === 'bigint' ? value : typeof value === 'number' && Number.isInteger(value) ? BigInt(value) : undefined;
  return big !== undefined && (big < TOML_INTEGER_RANGE.min || big > TOML_INTEGER_RANGE.max);
}

/** A value TOML cannot hold: where (keys and indexes from the table), the value, why, and whether the install fails on it (else it leaves the value out). */
export interface TomlGap {
  path: (string | number)[];
  value: unknown;
  why: string;
  fails: boolean;
}

/** Why an integer beyond the range cannot be written, for messages. */
export const INTEGER_BEYOND_TOML = `TOML integers are 64-bit, from ${TOML_INTEGER_RANGE.min} to ${TOML_INTEGER_RANGE.max} (toml.io/en/v1.0.0#integer)`;

/** Every place in `value` (a table as it is to be written) that TOML cannot hold. */
export function findTomlGaps(value: unknown, path: (string | number)[] = []): TomlGap[] {
  if (value === null) return [{ path, value, why: 'TOML has no null', fails: false }];
  if (isIntegerBeyondToml(value)) return [{ path, value, why: INTEGER_BEYOND_TOML, fails: true }];
  if (Array.isArray(value)) return value.flatMap((v, i) => findTomlGaps(v, [...path, i]));
  if (typeof value === 'object' && !(value instanceof Date)) return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => findTomlGaps(v, [...path, k]));
  return [];
}

/** `path` as text: `tools.read[1]`. */
export function showPath(path: readonly (string | number)[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}
