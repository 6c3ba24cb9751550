/**
 * The grammar of one `requires.tools` entry of `loadout.yaml` (issue 56, point 4). The
 * authoring form is closed (spec "Loadout record (authoring form)": `tools` is an array of
 * string), so a version range travels inside the string:
 *
 * ```
 * entry    = name [ range-part ]
 * name     = (ALPHA / DIGIT) *63( ALPHA / DIGIT / "." / "_" / "+" / "-" )
 * range-part = ( ">" / "<" / "=" / "^" / "~" ) ...    ; the range starts right after the name
 *            / 1*WSP range                             ; or after white space
 * range    = a node-semver range (`catalogue/version-ranges.ts`), e.g. >=3.11, ^20, >=18 <23, 2.x
 * ```
 *
 * Examples: `uv`, `python>=3.11`, `node>=20`, `git >=2.40`, `node >=18 <23`, `java 21.x`. The name
 * is the command looked up on `PATH` (so no `/`, no space); a name alone asks for any version.
 * Pure: text in, the entry or what is wrong with it out. The build publishes the entry unchanged.
 */
import { describeRangeProblem } from '../catalogue/version-ranges.js';

/** A tool's name: a command name (no path separator, no white space, no range operator). */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$/u;

/** A `requires.tools` entry read: the command's name and the range its version must be in (absent: any version). */
export interface ToolRequirement {
  /** The entry as written. */
  text: string;
  name: string;
  range?: string;
}

/** The characters a range may start with right after the name (node-semver's comparators and `^`, `~`). */
const OPERATOR_START = /^[<>=^~]/u;
const NAME_PREFIX = /^[A-Za-z0-9][A-Za-z0-9._+-]*/u;

/** What {@link readToolRequirement} returns: the entry, or why it does not read (`is …, expected …`). */
export type ReadToolRequirement = { ok: true; requirement: ToolRequirement } | { ok: false; problem: string };

const EXPECTED = 'expected a command name such as uv, optionally followed by a semver range: python>=3.11, node >=18 <23, git ^2.40';

/**
 * Reads one `requires.tools` entry by the grammar above. A problem is worded to follow the
 * field's name: `requires.tools[0] "node@20" has "@" after the name "node" (expected …)`.
 */
export function readToolRequirement(text: string): ReadToolRequirement {
  const fail = (problem: string): ReadToolRequirement => ({ ok: false, problem: `${problem} (${EXPECTED})` });
  const name = NAME_PREFIX.exec(text)?.[0];
  if (name === undefined) return fail(text.trim() === '' ? 'is empty' : `does not start with a command name`);
  if (!TOOL_NAME_PATTERN.test(name)) return fail(`has a name of ${name.length} characters (at most 64)`);
  const rest = text.slice(name.length);
  if (rest === '') return { ok: true, requirement: { text, name } };
  const spaced = /^\s/u.test(rest);
  if (!spaced && !OPERATOR_START.test(rest)) return fail(`has ${JSON.stringify(rest[0])} after the name "${name}"`);
  if (rest !== rest.trimEnd()) return fail('ends with white space');
  const range = rest.trim();
  const problem = describeRangeProblem(range);
  if (problem !== undefined) return { ok: false, problem: `has the range "${range}", which ${problem}` };
  return { ok: true, requirement: { text, name, range } };
}
