/**
 * Runs the checks over one loadout and assembles the spec's `verification` object. The same
 * function serves `loadout verify`, `loadout build` and submissions.
 */
import type { Diagnostic } from '../catalogue/diagnostics.js';
import { displayPath, decodeUtf8, type LoadoutSource } from '../catalogue/source.js';
import { MANIFEST_FILE, type Manifest } from '../catalogue/manifest.js';
import type { Agent, CheckId } from '../catalogue/vocabulary.js';
import { layoutInstall, type InstalledFiles } from '../layout/installed-files.js';
import { placeholderRawUrl } from '../layout/link-rewrite.js';
import type { CheckResult } from '../tree-format/verification.js';
import { validateAgainstSchema } from '../catalogue/schema.js';
import { parseYamlSource, readYamlValue, type YamlSource } from '../catalogue/yaml-document.js';
import { useYamlValueReader } from '../catalogue/front-matter-data.js';
import { isBlocking, type CheckContext, type CheckOutcome, type Finding, type Severity } from './check.js';
import { CHECKS } from './checks/index.js';
import { findCredentials, type CredentialScan } from './safety/credentials.js';
import { TextView } from './text/view.js';
import { checkedCapabilities } from './capabilities.js';
import type { Capabilities } from '../tree-format/capabilities.js';
import type { ConsentKind } from '../capabilities/consent.js';
import type { Policy, PolicyViolation } from '../policy/policy.js';
import { policyViolations, withPolicyFindings } from './policy-findings.js';
import { CHECKS_BUDGET_VARIABLE, ChecksTimeoutError, describeChecksTimeout, type ChecksTimeout } from './budget.js';

// Where the checks run, js-yaml is loaded: the installer's reading of front matter (the layouts the
// checks and the build make) takes its faster path too, for the same values (front-matter-data.ts).
useYamlValueReader(readYamlValue);

/** Prefix of a notice's line in a check's `details`. */
export const NOTICE_PREFIX = 'notice: ';

/** One finding of a run, located and labelled: which check and rule found it, and its weight. */
export interface RunFinding extends Diagnostic {
  /** 1-based column on `line` in UTF-16 code units, when the rule knows it (`Finding.column`). */
  column?: number;
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
  /** Set when the checks' time budget ran out: where they were. That check failed and the later ones were skipped. */
  timedOut?: ChecksTimeout;
  /** What the loadout lets the agent run and reach (`capabilities.ts`); absent when the manifest is not valid or the budget ran out. */
  capabilities?: Capabilities;
}

/** Options of {@link runChecks}. */
export interface RunChecksOptions {
  /** Run only these checks (others are omitted, not skipped); default all ten. */
  only?: readonly CheckId[];
  /** Folder of starter fixtures for `starter-build`. */
  fixturesDir?: string;
  /** How to scan for credentials; default {@link findCredentials} in this thread. */
  scanCredentials?: CredentialScan;
  /**
   * The checks' time budget in milliseconds (budget.ts); default none. It is looked at as each
   * check reads a file and as each check ends: past it, the running check fails, saying which
   * file it was reading, and the later checks are skipped. A single step that never comes back
   * (a file's scan) is not cut short here: the submissions API runs the checks on a worker that
   * it stops (submissions/check-pool.ts).
   */
  budgetMs?: number;
  /**
   * The clock the budget is measured with, in milliseconds (any origin, never going back);
   * default `performance.now`. Tests give one that moves as they say, so that whether the
   * budget runs out does not depend on how fast or loaded the machine is.
   */
  clock?: () => number;
  /** Called as each check starts (`file` undefined) and as it reads each file: where the checks are, for a caller that may have to stop them. */
  onProgress?: (check: CheckId, file: string | undefined) => void;
  /**
   * The pinned raw address of a file, which the installed files' rewritten links point at
   * (`CheckContext.installedAs`): the catalogue's when the build runs the checks; default
   * `https://loadout.invalid/raw/…` (link-rewrite.ts `placeholderRawUrl`), since the checks read
   * only the shape of an address, and a build's installed bytes (the `size` check) then differ
   * from `loadout verify`'s by the length of the addresses.
   */
  rawUrl?: (id: string, version: string, path: string) => string;
  /**
   * Where the checks keep the loadout as installed for each agent (`CheckContext.installedAs`),
   * so that a caller that lays it out with the same `rawUrl` takes those layouts (the build's
   * record, tree/render/record.ts `layoutForAgents`). Filled as the checks ask; default a map of the run's own.
   */
  installs?: Map<Agent, InstalledFiles>;
  /**
   * Kinds of content needing the user's consent (`capabilities/consent.ts`) that the catalogue
   * publishes all the same: each is then a notice of `safety` or `mcp` rather than a blocking
   * finding, and the pages and plugin README say so. Default none: every one blocks.
   */
  allowConsent?: readonly ConsentKind[];
  /**
   * A maintainer's policy (issue 55; `verify --policy`, `build --policy`, the submissions API's
   * `LOADOUT_POLICY`): what it refuses of the loadout is a blocking finding `policy/<rule>` of
   * `listing`, `mcp` or `safety` (policy-findings.ts). Default none.
   */
  policy?: Policy;
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
  const clock = options.clock ?? (() => performance.now());
  const deadline = options.budgetMs === undefined ? Infinity : clock() + options.budgetMs;
  let at: { check: CheckId; file: string | undefined } | undefined;
  /** Notes that the running check reads `file`; throws when the budget ran out before (blaming where the checks were until now). */
  const reach = (check: CheckId, file: string | undefined): void => {
    // A check that reads no file of the loadout (listing, parse, licence, …) reads its manifest.
    if (at !== undefined && clock() > deadline) throw new ChecksTimeoutError({ check: at.check, file: at.file ?? MANIFEST_FILE, budgetMs: options.budgetMs ?? 0 });
    at = { check, file };
    options.onProgress?.(check, file);
  };
  const fileReached = (): string | undefined => at?.file;
  const views = new Map<string, TextView | undefined>();
  const view = (path: string): TextView | undefined => {
    if (at !== undefined) reach(at.check, path);
    if (!views.has(path)) {
      // A file read only in part (source.ts) has no text to check: `size` reports it.
      const bytes = source.oversized?.has(path) === true ? undefined : source.files.get(path);
      const text = bytes === undefined ? undefined : decodeUtf8(bytes);
      views.set(path, text === undefined ? undefined : new TextView(text));
    }
    return views.get(path);
  };
  const earlier = new Map<CheckId, CheckOutcome>();
  const installs = options.installs ?? new Map<Agent, InstalledFiles>();
  const rawUrlOf = options.rawUrl ?? placeholderRawUrl;
  const installedAs = (agent: Agent): InstalledFiles | undefined => {
    if (manifest === undefined) return undefined;
    let installed = installs.get(agent);
    if (installed === undefined) {
      const { id, version, files } = manifest;
      installed = layoutInstall({ id, version, files, text: (p) => view(p)?.text, rawUrl: (p) => rawUrlOf(id, version, p) }, agent);
      installs.set(agent, installed);
    }
    return installed;
  };
  let capabilities: Capabilities | undefined;
  const context: CheckContext = {
    source,
    manifestYaml,
    schemaViolations,
    manifest,
    text: (path) => view(path)?.text,
    view,
    installedAs,
    earlier,
    scanCredentials: options.scanCredentials ?? findCredentials,
    fixturesDir: options.fixturesDir,
    capabilities: () => {
      if (manifest === undefined) return undefined;
      capabilities ??= checkedCapabilities(manifest, view);
      return capabilities;
    },
    allowConsent: new Set(options.allowConsent ?? []),
  };
  const results: CheckResult[] = [];
  const diagnostics: Diagnostic[] = [];
  const findings: RunFinding[] = [];
  let timedOut: ChecksTimeout | undefined;
  // What the policy refuses of the loadout, judged once, as the first check it concerns ends.
  let violations: PolicyViolation[] | undefined;
  for (const check of CHECKS) {
    if (options.only !== undefined && !options.only.includes(check.id)) continue;
    if (timedOut !== undefined) {
      results.push({ id: check.id, name: check.name, status: 'skip', summary: "not run: the checks' time budget ran out", details: [] });
      continue;
    }
    let outcome: CheckOutcome;
    try {
      at = undefined;
      reach(check.id, undefined);
      outcome = await check.run(context);
      if (options.policy !== undefined) {
        violations ??= policyViolations(context, options.policy);
        outcome = withPolicyFindings(check.id, outcome, context, violations);
      }
      reach(check.id, fileReached());
    } catch (error) {
      if (error instanceof ChecksTimeoutError) {
        timedOut = error.timeout;
        const d = timeoutDiagnostic(source, timedOut);
        diagnostics.push(d);
        findings.push({ ...d, check: check.id, rule: 'checks/timeout', severity: 'blocking' });
        results.push({ id: check.id, name: check.name, status: 'fail', summary: `timed out: ${describeChecksTimeout(timedOut)}; the later checks did not run`, details: [formatDetail(d)] });
        continue;
      }
      outcome = { status: 'fail', summary: `internal error in the ${check.id} check (a bug): ${(error as Error).message}`, findings: [] };
    }
    earlier.set(check.id, outcome);
    const blocking = outcome.findings.filter(isBlocking).map((f) => toDiagnostic(source, f));
    const notices = outcome.findings.filter((f) => !isBlocking(f)).map((f) => toDiagnostic(source, f));
    diagnostics.push(...blocking);
    for (const f of outcome.findings) findings.push({ ...toDiagnostic(source, f), ...(f.column === undefined ? {} : { column: f.column }), check: check.id, rule: f.rule ?? check.id, severity: f.severity ?? 'blocking' });
    results.push({ id: check.id, name: check.name, status: outcome.status, summary: outcome.summary, details: [...blocking.map(formatDetail), ...notices.map((d) => NOTICE_PREFIX + formatDetail(d)), ...(outcome.notes ?? [])] });
  }
  if (timedOut !== undefined) return { source, manifest, results, diagnostics, findings, timedOut };
  at = undefined;
  const derived = context.capabilities();
  return derived === undefined ? { source, manifest, results, diagnostics, findings } : { source, manifest, results, diagnostics, findings, capabilities: derived };
}

/** The blocking diagnostic of a run whose budget ran out: on the file being read, else on the loadout's folder. */
export function timeoutDiagnostic(source: LoadoutSource, timeout: ChecksTimeout): Diagnostic {
  const file = timeout.file === undefined ? (source.displayDir === '' ? source.id : source.displayDir) : displayPath(source, timeout.file);
  return {
    loadout: source.id,
    file,
    message: `${describeChecksTimeout(timeout, file)}; the later checks did not run (expected the checks of one loadout to finish within ${CHECKS_BUDGET_VARIABLE})`,
    hint: `Make the file smaller or split it; where the catalogue is checked, ${CHECKS_BUDGET_VARIABLE} raises the budget.`,
  };
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
