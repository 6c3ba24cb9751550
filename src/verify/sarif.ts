/**
 * Check runs as a SARIF 2.1.0 log (OASIS, "Static Analysis Results Interchange Format Version
 * 2.1.0"), for code scanning: GitHub shows each result on the line of the pull request it names
 * (docs.github.com, "SARIF support for code scanning"). `loadout verify --format sarif` prints it;
 * the verify Action uploads it. Pure: the caller says where files are and writes the text.
 *
 * One run of one tool (`loadout`) for all the loadouts checked. Each finding is a result:
 * - `ruleId` the finding's rule (`shell/pipe-to-interpreter`, `consent/hook`, or the check's id
 *   for a check without finer rules), described once in `tool.driver.rules` (rules.ts) and
 *   referred to by `ruleIndex`;
 * - `level` `error` for a blocking finding, `note` for a notice (a notice leaves its check
 *   passing, docs/authoring.md "What the checks look for"; GitHub fails its check run on
 *   `error` by default and lists notes without failing);
 * - one location: `artifactLocation.uri` relative to the repository's root with `uriBaseId`
 *   `%SRCROOT%` (section 3.4.4, and what GitHub's upload resolves against the checkout), and a
 *   region with `startLine` and, where the rule knows it, `startColumn` in UTF-16 code units
 *   (`run.columnKind`). A finding without a line is put on line 1 of its file.
 * A check that fails without a finding of its own (an internal error) is a result on the
 * loadout's `loadout.yaml`, so that a failing verify never gives an empty log.
 * The types below are the subset of the schema this module writes; test/verify/sarif.test.ts
 * validates what it writes against the schema.
 */
import { MANIFEST_FILE } from '../catalogue/manifest.js';
import { displayPath, type LoadoutSource } from '../catalogue/source.js';
import type { CheckRun, RunFinding } from './run.js';
import { describeRule } from './rules.js';

/** The `$schema` of the logs written: the OASIS standard's schema (2.1.0 with its errata 01). */
export const SARIF_SCHEMA_URI = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

/** The base that every `artifactLocation.uri` is relative to: the repository's root (SARIF section 3.4.4). */
export const SOURCE_ROOT = '%SRCROOT%';

/** A SARIF log (section 3.13). */
export interface SarifLog {
  $schema: string;
  version: '2.1.0';
  runs: SarifRun[];
}

/** One run of the tool (section 3.14). */
export interface SarifRun {
  tool: { driver: SarifDriver };
  /** Columns count UTF-16 code units, as JavaScript strings index (section 3.14.17). */
  columnKind: 'utf16CodeUnits';
  results: SarifResult[];
}

/** The tool (section 3.19). */
export interface SarifDriver {
  name: string;
  version: string;
  semanticVersion: string;
  rules: SarifRule[];
}

/** A rule (`reportingDescriptor`, section 3.49). */
export interface SarifRule {
  id: string;
  shortDescription: { text: string };
  defaultConfiguration: { level: SarifLevel };
  properties: { tags: string[] };
}

/** `error` for a blocking finding, `note` for a notice (section 3.27.10). */
export type SarifLevel = 'error' | 'note';

/** A result (section 3.27). */
export interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: SarifLevel;
  message: { text: string };
  locations: [SarifLocation];
  /** The loadout and the check that found it. */
  properties: { loadout: string; check: string };
}

/** Where a result is (section 3.28). */
export interface SarifLocation {
  physicalLocation: {
    artifactLocation: { uri: string; uriBaseId: typeof SOURCE_ROOT };
    region: { startLine: number; startColumn?: number };
  };
}

/** Where a file of a loadout is shown. */
export interface SarifArtifact {
  /** `/`-separated path relative to the repository's root, not encoded. */
  path: string;
  /**
   * True when the file checked has the lines of `path` (a catalogue's own file, or an imported
   * one, whose bytes the import keeps); false for a file made from it, whose results go on line 1.
   */
  sameLines: boolean;
  /** Said before the message when the file checked is not `path` itself (`in loadout.yaml, which loadout import made:`). */
  context?: string;
}

/** Options of {@link sarifLogOf}. */
export interface SarifOptions {
  /** The version of `loadout` (package.json). */
  toolVersion: string;
  /**
   * The catalogue root relative to the repository's root, `/`-separated (`''`, the default,
   * when the catalogue is the repository). Prefixed to each file's path by the default `locate`.
   */
  repositoryPrefix?: string;
  /** Where the file `path` (relative to the loadout's folder) of `run`'s loadout is; default its place in the catalogue. */
  locate?: (run: CheckRun, path: string) => SarifArtifact;
}

/** The SARIF log of `runs` (see the module comment). Pure. */
export function sarifLogOf(runs: readonly CheckRun[], options: SarifOptions): SarifLog {
  const prefix = (options.repositoryPrefix ?? '').split('/').filter((s) => s !== '' && s !== '.');
  const locate = options.locate ?? ((run: CheckRun, path: string): SarifArtifact => ({ path: [...prefix, ...displayPath(run.source, path).split('/')].join('/'), sameLines: true }));
  const rules: SarifRule[] = [];
  const ruleIndex = new Map<string, number>();
  const indexOf = (rule: string, check: string, checkName: string): number => {
    let index = ruleIndex.get(rule);
    if (index === undefined) {
      const described = describeRule(rule, checkName);
      index = rules.push({ id: rule, shortDescription: { text: described.description }, defaultConfiguration: { level: levelOf(described.severity) }, properties: { tags: [check] } }) - 1;
      ruleIndex.set(rule, index);
    }
    return index;
  };
  const results: SarifResult[] = [];
  for (const run of runs) {
    const names = new Map(run.results.map((r) => [r.id as string, r.name]));
    const findings = run.findings ?? [];
    for (const finding of findings) {
      const artifact = locate(run, pathInLoadout(run.source, finding.file));
      results.push({
        ruleId: finding.rule,
        ruleIndex: indexOf(finding.rule, finding.check, names.get(finding.check) ?? finding.check),
        level: levelOf(finding.severity),
        message: { text: messageOf(finding, artifact.context) },
        locations: [locationOf(artifact, artifact.sameLines ? finding.line : undefined, artifact.sameLines ? finding.column : undefined)],
        properties: { loadout: run.source.id, check: finding.check },
      });
    }
    // A failing check with nothing blocking to show for it: say so on the manifest.
    for (const result of run.results) {
      if (result.status !== 'fail' || findings.some((f) => f.check === result.id && f.severity === 'blocking')) continue;
      const artifact = locate(run, MANIFEST_FILE);
      results.push({
        ruleId: result.id,
        ruleIndex: indexOf(result.id, result.id, result.name),
        level: 'error',
        message: { text: `${artifact.context === undefined ? '' : `${artifact.context} `}the ${result.id} check fails: ${result.summary}` },
        locations: [locationOf(artifact, undefined, undefined)],
        properties: { loadout: run.source.id, check: result.id },
      });
    }
  }
  return {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0',
    runs: [{ tool: { driver: { name: 'loadout', version: options.toolVersion, semanticVersion: options.toolVersion, rules } }, columnKind: 'utf16CodeUnits', results }],
  };
}

const levelOf = (severity: RunFinding['severity']): SarifLevel => (severity === 'notice' ? 'note' : 'error');

/** The finding's message as `formatDiagnostic` words it, without its place (the location holds that). */
function messageOf(finding: RunFinding, context: string | undefined): string {
  const pointer = finding.pointer !== undefined && finding.pointer !== '' && !finding.message.includes(finding.pointer) ? ` (at ${finding.pointer})` : '';
  const hint = finding.hint === undefined ? '' : ` (hint: ${finding.hint})`;
  return `${context === undefined ? '' : `${context} `}${finding.message}${pointer}${hint}`;
}

function locationOf(artifact: SarifArtifact, line: number | undefined, column: number | undefined): SarifLocation {
  const region = line === undefined ? { startLine: 1 } : column === undefined ? { startLine: line } : { startLine: line, startColumn: column };
  return { physicalLocation: { artifactLocation: { uri: encodePath(artifact.path), uriBaseId: SOURCE_ROOT }, region } };
}

/** A relative path as a relative URI reference: each segment percent-encoded (RFC 3986 section 3.3). */
export function encodePath(path: string): string {
  return path
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
}

/**
 * The path inside the loadout's folder of a finding's `file` (`loadouts/<id>/<path>`); the
 * folder itself (a time budget that ran out before a file was read) is its `loadout.yaml`.
 */
export function pathInLoadout(source: LoadoutSource, file: string): string {
  if (source.displayDir === '') return file;
  if (file === source.displayDir || file === source.id) return MANIFEST_FILE;
  return file.startsWith(`${source.displayDir}/`) ? file.slice(source.displayDir.length + 1) : file;
}
