/**
 * The shape of a check (DESIGN.md section 4; spec "Verification"): each of the ten checks is
 * one module in `src/verify/checks/` named by its id, with a `run` that reads a
 * {@link CheckContext} and returns a {@link CheckOutcome}. Checks never throw for bad content.
 */
import type { CredentialScan } from './safety/credentials.js';
import type { TextView } from './text/view.js';
import type { SchemaViolation } from '../catalogue/schema.js';
import type { Manifest } from '../catalogue/manifest.js';
import type { LoadoutSource } from '../catalogue/source.js';
import { PUBLISHED_AGENTS, type Agent, type CheckId, type CheckStatus } from '../catalogue/vocabulary.js';
import type { InstalledFiles } from '../layout/installed-files.js';
import type { YamlSource } from '../catalogue/yaml-document.js';
import type { Capabilities } from '../tree-format/capabilities.js';
import type { ConsentKind } from '../capabilities/consent.js';

/**
 * How much a finding weighs (docs/authoring.md "What the checks look for"): a `blocking`
 * finding fails its check (and `build` refuses the loadout); a `notice` leaves the check `pass`
 * and is listed in its `details` prefixed `notice:` for a reader to judge (and sets
 * `security.verdict: flagged` when the safety check has one).
 */
export type Severity = 'blocking' | 'notice';

/** One problem found by a check, located in a file of the loadout (or its manifest). */
export interface Finding {
  /** Path relative to the loadout folder (`loadout.yaml` for the manifest). */
  file: string;
  /** 1-based line, when known. */
  line?: number;
  /**
   * 1-based column of the finding's start on `line`, in UTF-16 code units (as JavaScript strings
   * index; SARIF's `utf16CodeUnits`), when the rule knows it: the rules that match text do.
   */
  column?: number;
  /** JSON pointer into the manifest, for manifest findings. */
  pointer?: string;
  message: string;
  hint?: string;
  /**
   * The rule that found it, a stable id such as `shell/pipe-to-interpreter` (the README's
   * table of safety rules lists them); absent means the check's id.
   */
  rule?: string;
  /** Absent means `blocking`. */
  severity?: Severity;
}

/** What a check returns. `details` of the published check are derived from `findings` and `notes`. */
export interface CheckOutcome {
  status: CheckStatus;
  /** One line. */
  summary: string;
  findings: Finding[];
  /** Extra detail lines that are not problems (e.g. what a passing check looked at). */
  notes?: string[];
}

/** Everything a check may read. Built once per loadout by `runChecks`. */
export interface CheckContext {
  source: LoadoutSource;
  /** The parsed `loadout.yaml` (undefined when the folder has none). */
  manifestYaml: YamlSource | undefined;
  /** Schema violations of the parsed manifest (empty when it does not parse or is valid). */
  schemaViolations: readonly SchemaViolation[];
  /** The manifest once it validates against the schema; undefined otherwise. */
  manifest: Manifest | undefined;
  /** Strictly decoded UTF-8 text of a file, or undefined (missing, or not UTF-8). Cached. */
  text(path: string): string | undefined;
  /** The shared views of a file's text (lines, front matter, Markdown structure); undefined as for `text`. Cached. */
  view(path: string): TextView | undefined;
  /**
   * The loadout as installed for `agent` (layout/installed-files.ts `layoutInstall`, with the
   * placeholder raw URLs of layout/link-rewrite.ts), made once per agent for every check that
   * reads it; undefined while the manifest does not validate.
   */
  installedAs(agent: Agent): InstalledFiles | undefined;
  /** Outcomes of the checks that ran before this one. */
  earlier: ReadonlyMap<CheckId, CheckOutcome>;
  /** How the `safety` check scans for credentials: in this thread, or on a worker. */
  scanCredentials: CredentialScan;
  /** Folder holding starter fixtures named by `tested.fixture` (the `starter-build` check). */
  fixturesDir: string | undefined;
  /** What the loadout lets the agent run and reach (`capabilities.ts`), made once; undefined while the manifest does not validate. */
  capabilities(): Capabilities | undefined;
  /** Kinds of content needing the user's consent that this catalogue publishes (a notice instead of a blocking finding; `RunChecksOptions.allowConsent`). */
  allowConsent: ReadonlySet<ConsentKind>;
}

/** A check: permanent id, human name, and its run function. */
export interface Check {
  id: CheckId;
  name: string;
  run(context: CheckContext): CheckOutcome | Promise<CheckOutcome>;
}

/** A passing outcome. */
export function pass(summary: string, notes?: string[]): CheckOutcome {
  return notes === undefined ? { status: 'pass', summary, findings: [] } : { status: 'pass', summary, findings: [], notes };
}

/** True for a finding that fails its check (every finding not marked `notice`). */
export const isBlocking = (finding: Finding): boolean => finding.severity !== 'notice';

/**
 * A failing outcome when a finding is blocking (`failSummary` gets their count), else a
 * passing one with `passSummary`, followed by `; <n> notice(s)` when there are notices. The
 * outcome keeps every finding, notices included.
 */
export function judge(findings: Finding[], passSummary: string, failSummary: (count: number) => string): CheckOutcome {
  const blocking = findings.filter(isBlocking).length;
  const notices = findings.length - blocking;
  if (blocking > 0) return { status: 'fail', summary: notices === 0 ? failSummary(blocking) : `${failSummary(blocking)}; ${plural(notices, 'notice')}`, findings };
  return notices === 0 ? pass(passSummary) : { status: 'pass', summary: `${passSummary}; ${plural(notices, 'notice')}`, findings };
}

/** An outcome for a check that does not apply to this loadout. */
export function notApplicable(summary: string): CheckOutcome {
  return { status: 'n/a', summary, findings: [] };
}

/** An outcome for a check that could not run. */
export function skip(summary: string): CheckOutcome {
  return { status: 'skip', summary, findings: [] };
}

/** "1 problem" / "3 problems" / "0 problems": a count and a regular English noun that agrees with it. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/**
 * A count, its noun and a present-tense verb that agree: `1 file parses`, `3 files parse`,
 * `0 files parse` (English subject-verb agreement: only a count of one is singular).
 * @param verb the verb's singular and plural form, e.g. `['matches', 'match']`
 */
export function pluralWithVerb(count: number, noun: string, verb: readonly [singular: string, plural: string]): string {
  return `${plural(count, noun)} ${count === 1 ? verb[0] : verb[1]}`;
}

/**
 * The agents a check ran for, for a summary: `6 agents` when they are all the published
 * agents, else the count and their names, `2 agents (codex, cursor)`, `1 agent (codex)`.
 */
export function describeAgents(agents: readonly string[]): string {
  if (agents.length === PUBLISHED_AGENTS.length) return plural(agents.length, 'agent');
  return agents.length === 0 ? 'no agent' : `${plural(agents.length, 'agent')} (${agents.join(', ')})`;
}
