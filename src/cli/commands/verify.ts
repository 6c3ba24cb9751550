/** `loadout verify [id…] [--format text|json|markdown|sarif]` (`--json`, `--markdown`): the ten checks, and the bundles' checks (DESIGN.md sections 2 and 4; issue 56). */
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { LoadoutError } from '../../catalogue/errors.js';
import type { ReadBundle } from '../../bundles/read.js';
import { checkBundles } from '../../tree/bundles/check-bundles.js';
import { consentKindsOf } from '../flags.js';
import { checkCatalogue, passed } from '../../verify/catalogue.js';
import type { CheckRun } from '../../verify/run.js';
import { sarifLogOf, type SarifOptions } from '../../verify/sarif.js';
import { summariseVerification } from '../../verify/verification.js';
import type { Capabilities } from '../../tree-format/capabilities.js';
import { capabilitiesMarkdown, formatCapabilities } from '../capabilities-report.js';
import { bundlePassed, bundlesAsJson, formatBundlesMarkdown, formatBundlesTable, splitCheckedIds } from '../bundles-report.js';
import { EXIT } from '../exit.js';
import { namedPolicy } from '../policy-source.js';
import { formatRunsMarkdown, formatRunsTable, runsAsJson, type Write } from '../report.js';

/** What `loadout verify` can print. */
export const VERIFY_FORMATS = ['text', 'json', 'markdown', 'sarif'] as const;
/** One of {@link VERIFY_FORMATS}. */
export type VerifyFormat = (typeof VERIFY_FORMATS)[number];

/** Options of `loadout verify`. */
export interface VerifyOptions {
  root: string;
  /** Loadout or bundle ids (none: every loadout and every bundle). */
  ids: string[];
  json: boolean;
  /** Print Markdown tables (for a CI job summary) instead of the terminal table. */
  markdown?: boolean;
  /** `--format`; `--json` and `--markdown` say the same as `json` and `markdown`. */
  format?: string;
  /** The version of `loadout`, named in the SARIF log. */
  version?: string;
  /** `--allow-consent` (default `LOADOUT_ALLOW_CONSENT`): kinds of content needing consent the catalogue publishes, as notices. */
  allowConsent?: string;
  /**
   * Print every problem line of the text table: true when standard output is a terminal, where
   * a reader scrolls (issue 57, point 15); a pipe gets the first three of each check and a count.
   */
  allDetails?: boolean;
  /** `--policy`: a maintainer's policy, whose violations fail the checks as `policy/<rule>` (docs/policy.md). */
  policy?: string;
  /** `--policy-key`: the public keys that must have signed it. */
  policyKey?: string[];
}

/**
 * Runs the command; returns 0 when no check fails, else 1. With `--json`: `[{id, verification}]`,
 * then `{id, kind: "bundle", valid, errors}` per bundle; with `--format sarif`: a SARIF 2.1.0 log
 * whose paths are relative to the git repository holding the catalogue (verify/sarif.ts). The
 * text and Markdown end with what each loadout can run (issue 54, point 4).
 * @throws LoadoutError `usage` for an unknown `--format`, or one that `--json` or `--markdown` contradicts
 */
export async function verifyCommand(options: VerifyOptions, out: Write): Promise<number> {
  const format = formatOf(options);
  const ids = await splitCheckedIds(options.root, options.ids);
  const allowConsent = consentKindsOf(options.allowConsent, '--allow-consent') ?? consentKindsOf(process.env['LOADOUT_ALLOW_CONSENT'], 'LOADOUT_ALLOW_CONSENT');
  const policy = await namedPolicy(options, process.env);
  const runs = ids.loadouts === null ? [] : await checkCatalogue({ root: options.root }, ids.loadouts, { ...(allowConsent === undefined ? {} : { allowConsent }), ...(policy === undefined ? {} : { policy: policy.policy }) });
  const bundles: ReadBundle[] = ids.bundles === null ? [] : await checkBundles(options.root, ids.bundles);
  out(formatVerifyReport(runs, format, { toolVersion: options.version ?? '0.0.0', repositoryPrefix: repositoryPrefixOf(options.root) }, bundles, { allDetails: options.allDetails === true }));
  return runs.every(passed) && bundles.every(bundlePassed) ? EXIT.ok : EXIT.failed;
}

/**
 * The output of `loadout verify` in `format`: the terminal table (every problem line with
 * `text.allDetails`, else the first three of each check and how many more), `[{id,
 * verification}]`, a Markdown section per loadout, or a SARIF log (`sarif` places files as
 * `sarif` says). Every command that shows verify's results prints them through this, so they
 * show the same.
 */
export function formatVerifyReport(runs: readonly CheckRun[], format: VerifyFormat, sarif: SarifOptions, bundles: readonly ReadBundle[] = [], text: { allDetails?: boolean } = {}): string {
  switch (format) {
    case 'json': {
      const checkedAt = new Date();
      const loadouts = JSON.parse(runsAsJson(runs, (run) => ({ verification: summariseVerification(run.results, { checkedAt, commit: 'working-tree', contentCurrent: true }) }))) as unknown[];
      return `${JSON.stringify([...loadouts, ...bundlesAsJson(bundles)], null, 2)}\n`;
    }
    case 'markdown':
      return formatRunsMarkdown(runs) + formatBundlesMarkdown(bundles) + formatRunsCapabilitiesMarkdown(runs);
    case 'sarif':
      return `${JSON.stringify(sarifLogOf(runs, sarif), null, 2)}\n`;
    case 'text':
      return formatRunsTable(runs, text.allDetails === true ? Infinity : undefined) + formatBundlesTable(bundles) + formatRunsCapabilities(runs);
  }
}

/** The last section of `verify`'s text: what each checked loadout can run, as `install` shows it (a reviewer reads it on a pull request). */
function formatRunsCapabilities(runs: readonly CheckRun[]): string {
  const shown = runs.filter((run) => run.capabilities !== undefined);
  return shown.length === 0 ? '' : `\n${shown.map((run) => formatCapabilities(`What ${run.source.id} can run`, run.capabilities as Capabilities)).join('')}`;
}

/** The same in Markdown: a section per loadout with a list per kind, for a CI job summary. */
function formatRunsCapabilitiesMarkdown(runs: readonly CheckRun[]): string {
  const sections = runs.flatMap((run) => (run.capabilities === undefined ? [] : [capabilitiesMarkdown(run.source.id, run.capabilities)]));
  return sections.length === 0 ? '' : `\n${sections.join('\n')}`;
}

/** The format the flags ask for. @throws LoadoutError `usage` as {@link verifyCommand} says */
function formatOf(options: VerifyOptions): VerifyFormat {
  const switches = [...(options.json ? ['json' as const] : []), ...(options.markdown === true ? ['markdown' as const] : [])];
  if (options.format !== undefined && !(VERIFY_FORMATS as readonly string[]).includes(options.format)) {
    throw new LoadoutError('usage', `--format is ${JSON.stringify(options.format)} (expected one of ${VERIFY_FORMATS.join(', ')})`);
  }
  const asked = new Set<VerifyFormat>([...switches, ...(options.format === undefined ? [] : [options.format as VerifyFormat])]);
  if (asked.size > 1) throw new LoadoutError('usage', `${[...asked].join(' and ')} asked for at once (expected one output format: --format, --json or --markdown)`);
  return [...asked][0] ?? 'text';
}

/**
 * `root` relative to the root of the git repository holding it (the nearest folder above it,
 * itself included, with a `.git` entry), `/`-separated; `''` when `root` is that root or in no
 * repository. Code scanning reads SARIF paths relative to the repository (sarif.ts).
 */
export function repositoryPrefixOf(root: string): string {
  const start = resolve(root);
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return relative(dir, start).split(sep).join('/');
    if (dirname(dir) === dir) return '';
  }
}
