/**
 * `loadout ci verify [path] [--sarif FILE] [--summary FILE] [--author NAME]`: the script of the
 * verify Action (actions/verify/action.yml; docs/authoring.md "Checking in GitHub Actions"). It
 * checks a repository of loadouts (`<path>/loadouts/`, as `loadout verify` does) or, without
 * one, of plain Agent Skills folders, each imported on the fly as `loadout import --dry-run`
 * would (import/skill-folders.ts), then prints what `loadout verify` prints, appends its Markdown
 * to the job summary and writes the SARIF log for code scanning, paths relative to the git
 * repository (a finding on a file the import generates is told on the skill's SKILL.md).
 */
import { appendFile, realpath, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LoadoutError } from '../../catalogue/errors.js';
import { MANIFEST_FILE } from '../../catalogue/manifest.js';
import { checkSkillFolders } from '../../import/skill-folders.js';
import { checkCatalogue, passed } from '../../verify/catalogue.js';
import type { CheckRun } from '../../verify/run.js';
import type { SarifArtifact, SarifOptions } from '../../verify/sarif.js';
import { EXIT } from '../exit.js';
import { namedPolicy } from '../policy-source.js';
import { escapeMarkdown, type Write } from '../report.js';
import { formatVerifyReport, repositoryPrefixOf } from './verify.js';

/** Options of `loadout ci verify`. */
export interface CiVerifyOptions {
  /** The repository, or the folder in it to check. */
  path: string;
  /** Write the SARIF log here. */
  sarif?: string;
  /** Append the Markdown report here (`$GITHUB_STEP_SUMMARY`). */
  summary?: string;
  /** The author an imported skill is credited to when the git remote names no GitHub owner. */
  author?: string;
  /** `YYYY-MM-DD`. */
  today: string;
  /** The version of `loadout`, named in the SARIF log. */
  version: string;
  /** `--policy`: a maintainer's policy; what it refuses fails the checks as `policy/<rule>` findings, which the SARIF log puts on the pull request's lines. */
  policy?: string;
  /** `--policy-key`: the public keys that must have signed it. */
  policyKey?: string[];
}

/**
 * Runs the command; returns 0 when every check of every loadout passes, else 1.
 * @throws LoadoutError `not_found` when `path` holds neither `loadouts/` nor a SKILL.md below it
 */
export async function ciVerifyCommand(options: CiVerifyOptions, out: Write): Promise<number> {
  const path = await realpath(options.path).catch((cause: unknown) => {
    throw new LoadoutError('not_found', `${options.path}: no such folder (expected a repository of loadouts or of skills folders)`, { cause });
  });
  const loaded = await namedPolicy(options, process.env);
  const policy = loaded === undefined ? {} : { policy: loaded.policy };
  const prefix = repositoryPrefixOf(path);
  const repository = prefix === '' ? path : join(path, ...prefix.split('/').map(() => '..'));
  let runs: CheckRun[];
  let sarif: SarifOptions;
  let preface = '';
  let markdownPreface = '';
  if (await isFolder(join(path, 'loadouts'))) {
    runs = await checkCatalogue({ root: path }, [], policy);
    sarif = { toolVersion: options.version, repositoryPrefix: prefix };
  } else {
    const checked = await checkSkillFolders({ repository, path, today: options.today, ...(options.author === undefined ? {} : { author: options.author }), ...policy });
    if (checked.length === 0) {
      throw new LoadoutError('not_found', `${options.path}: no loadouts/ folder and no SKILL.md below it (expected a catalogue of loadouts, or Agent Skills folders)`, {
        hint: 'Point the Action (its path input) at the folder that holds loadouts/ or the skills folders.',
      });
    }
    runs = checked.map((c) => c.run);
    const byRun = new Map(checked.map((c) => [c.run, c]));
    const locate = (run: CheckRun, file: string): SarifArtifact => {
      const folder = byRun.get(run);
      const source = folder?.sources.get(file);
      if (source !== undefined) return { path: source, sameLines: true };
      const skill = [folder?.folder ?? '', 'SKILL.md'].filter((s) => s !== '').join('/');
      return { path: skill, sameLines: false, context: `in ${file === MANIFEST_FILE ? 'the loadout.yaml' : file} that loadout import makes for this skill:` };
    };
    sarif = { toolVersion: options.version, locate };
    const named = checked.map((c) => ({ folder: c.folder === '' ? '.' : c.folder, id: c.run.source.id }));
    preface = `${named.map((n) => `${n.folder}: checked as the loadout ${n.id} that loadout import makes of it (nothing written)`).join('\n')}\n\n`;
    markdownPreface = `Each skills folder is checked as the loadout that \`loadout import\` makes of it (nothing written):\n\n${named.map((n) => `- ${escapeMarkdown(n.folder)} → ${escapeMarkdown(n.id)}`).join('\n')}\n\n`;
  }
  out(preface + formatVerifyReport(runs, 'text', sarif));
  if (options.summary !== undefined) await appendFile(options.summary, `${markdownPreface}${formatVerifyReport(runs, 'markdown', sarif)}`);
  if (options.sarif !== undefined) await writeFile(options.sarif, formatVerifyReport(runs, 'sarif', sarif));
  return runs.every(passed) ? EXIT.ok : EXIT.failed;
}

async function isFolder(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() === true;
}
