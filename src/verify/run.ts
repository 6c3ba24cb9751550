/**
 * Runs the checks over one loadout and assembles the spec's `verification` object. The same
 * function serves `loadout verify`, `loadout build` and submissions.
 */
import type { Diagnostic } from '../catalogue/diagnostics.js';
import { displayPath, decodeUtf8, type LoadoutSource } from '../catalogue/source.js';
import type { Manifest } from '../catalogue/manifest.js';
import type { CheckId } from '../catalogue/vocabulary.js';
import { validateAgainstSchema } from '../catalogue/schema.js';
import { parseYamlSource, type YamlSource } from '../catalogue/yaml-document.js';
import { isBlocking, type CheckContext, type CheckOutcome, type CheckStatus, type Finding, type Severity } from './check.js';
import { CHECKS } from './checks/index.js';
import { findCredentials, type CredentialScan } from './safety/credentials.js';
import { TextView } from './text/view.js';

/** A check's entry in the published record (spec "Verification": `checks`). */
export interface CheckResult {
  id: CheckId;
  name: string;
  status: CheckStatus;
  summary: string;
  /**
   * `file:line: message` lines, paths relative to the catalogue root: the blocking findings,
   * then the notices as `notice: file:line: message` (issue 11, point 1), then notes.
   */
  details: string[];
}

/** Prefix of a notice's line in a check's `details`. */
export const NOTICE_PREFIX = 'notice: ';

/** One finding of a run, located and labelled: which check and rule found it, and its weight. */
export interface RunFinding extends Diagnostic {
  check: CheckId;
  /** The rule's stable id (the check's id when the check has no finer rules). */
  rule: string;
  severity: Severity;
}

/** The outcome of running checks over one loadout. */
export interface CheckRun {
  source: LoadoutSource;
  /** The manifest when it validates against the schema. */
  manifest: Manifest | undefined;
  results: CheckResult[];
  /** The blocking findings of every check as diagnostics, for the terminal and JSON reporters. */
  diagnostics: Diagnostic[];
  /**
   * Every finding, blocking and notice, in check order. Absent on a run rebuilt from stored
   * results (an unchanged loadout in an incremental build); their `details` still hold them.
   */
  findings?: RunFinding[];
}

/** Options of {@link runChecks}. */
export interface RunChecksOptions {
  /** Run only these checks (others are omitted, not skipped); default all ten. */
  only?: readonly CheckId[];
  /** Folder of starter fixtures for `starter-build`. */
  fixturesDir?: string;
  /** How to scan for credentials; default {@link findCredentials} in this thread. */
  scanCredentials?: CredentialScan;
}

/**
 * Runs the checks, in order, over `source`. Never throws for bad content: a check that throws
 * is a bug, reported as a failing check whose summary says so.
 */
export async function runChecks(source: LoadoutSource, options: RunChecksOptions = {}): Promise<CheckRun> {
  const manifestYaml: YamlSource | undefined = source.manifestText === undefined ? undefined : parseYamlSource(source.manifestText);
  const schemaViolations = manifestYaml === undefined || manifestYaml.errors.length > 0 ? [] : validateAgainstSchema(manifestYaml.data);
  // Checks after `listing` may read the manifest once the schema accepts it, even if a file is missing.
  const manifest = manifestYaml !== undefined && manifestYaml.errors.length === 0 && schemaViolations.length === 0 ? (manifestYaml.data as Manifest) : undefined;
  const views = new Map<string, TextView | undefined>();
  const view = (path: string): TextView | undefined => {
    if (!views.has(path)) {
      const bytes = source.files.get(path);
      const text = bytes === undefined ? undefined : decodeUtf8(bytes);
      views.set(path, text === undefined ? undefined : new TextView(text));
    }
    return views.get(path);
  };
  const earlier = new Map<CheckId, CheckOutcome>();
  const context: CheckContext = {
    source,
    manifestYaml,
    schemaViolations,
    manifest,
    text: (path) => view(path)?.text,
    view,
    earlier,
    scanCredentials: options.scanCredentials ?? findCredentials,
    fixturesDir: options.fixturesDir,
  };
  const results: CheckResult[] = [];
  const diagnostics: Diagnostic[] = [];
  const findings: RunFinding[] = [];
  for (const check of CHECKS) {
    if (options.only !== undefined && !options.only.includes(check.id)) continue;
    let outcome: CheckOutcome;
    try {
      outcome = await check.run(context);
    } catch (error) {
      outcome = { status: 'fail', summary: `internal error in the ${check.id} check (a bug): ${(error as Error).message}`, findings: [] };
    }
    earlier.set(check.id, outcome);
    const blocking = outcome.findings.filter(isBlocking).map((f) => toDiagnostic(source, f));
    const notices = outcome.findings.filter((f) => !isBlocking(f)).map((f) => toDiagnostic(source, f));
    diagnostics.push(...blocking);
    for (const f of outcome.findings) findings.push({ ...toDiagnostic(source, f), check: check.id, rule: f.rule ?? check.id, severity: f.severity ?? 'blocking' });
    results.push({ id: check.id, name: check.name, status: outcome.status, summary: outcome.summary, details: [...blocking.map(formatDetail), ...notices.map((d) => NOTICE_PREFIX + formatDetail(d)), ...(outcome.notes ?? [])] });
  }
  return { source, manifest, results, diagnostics, findings };
}

function toDiagnostic(source: LoadoutSource, finding: Finding): Diagnostic {
  const d: Diagnostic = { loadout: source.id, file: displayPath(source, finding.file), message: finding.message };
  if (finding.line !== undefined) d.line = finding.line;
  if (finding.pointer !== undefined) d.pointer = finding.pointer;
  if (finding.hint !== undefined) d.hint = finding.hint;
  return d;
}

function formatDetail(d: Diagnostic): string {
  return `${d.line === undefined ? d.file : `${d.file}:${d.line}`}: ${d.message}`;
}
