/**
 * `loadout build [--out dist] [--base-url URL] [--clean] [--no-plugins]`: the static tree
 * (DESIGN.md sections 1 and 2). The marketplaces of the native plugins (DESIGN.md "Native
 * plugins") are configured by the environment: `LOADOUT_MARKETPLACE_NAME` (default
 * `loadout-catalogue`), `LOADOUT_MARKETPLACE_OWNER`, `LOADOUT_MARKETPLACE_DESCRIPTION`, and the
 * git branch `loadout publish --plugins-remote` pushes to: `LOADOUT_PLUGINS_REPOSITORY`
 * (default `GITHUB_REPOSITORY`) and `LOADOUT_PLUGINS_BRANCH` (default `plugins`).
 * `--cli-published <version>` (default `LOADOUT_CLI_PUBLISHED`) tells the build that
 * `loadout-cli` is on the npm registry at the version it packs, so that the pages show the
 * registry's command too (issue 57, point 2; layout/install-routes.ts).
 */
import { consentKindsOf } from '../flags.js';
import { LoadoutError } from '../../catalogue/errors.js';
import { DEFAULT_MARKETPLACE, MARKETPLACE_NAME, type MarketplaceSettings } from '../../layout/plugin-marketplaces.js';
import { buildCatalogue } from '../../tree/build.js';
import { takeSigningSettings } from '../../tree/render/signed-snapshot.js';
import { EXIT } from '../exit.js';
import { namedPolicy } from '../policy-source.js';
import { formatDiagnostic } from '../../catalogue/diagnostics.js';
import { formatDiagnostics, type Write } from '../report.js';

/** Options of `loadout build`. */
export interface BuildCommandOptions {
  root: string;
  out: string;
  baseUrl: string;
  /** Show progress (on a TTY, not in CI). */
  progress: boolean;
  /** Ignore the previous tree. */
  clean: boolean;
  /** False with `--no-plugins`. */
  plugins?: boolean;
  /** `--cli-published`: the version of `loadout-cli` on the npm registry (tree/build.ts `BuildOptions.cliPublished`). */
  cliPublished?: string;
  /** `--allow-consent` (default `LOADOUT_ALLOW_CONSENT`): kinds of content needing consent this catalogue publishes (tree/build.ts `BuildOptions.allowConsent`). */
  allowConsent?: string;
  /** `--policy`: a maintainer's policy; a loadout it refuses fails its checks (tree/build.ts `BuildOptions.policy`). */
  policy?: string;
  /** `--policy-key`: the public keys that must have signed it. */
  policyKey?: string[];
}

const set = (value: string | undefined): string | undefined => (value === undefined || value.trim() === '' ? undefined : value.trim());

/**
 * The marketplaces' settings from `env` (see the module comment).
 * @throws LoadoutError `config` for a name that is not a slug of at most 64 characters.
 */
export function readMarketplaceSettings(env: NodeJS.ProcessEnv): MarketplaceSettings {
  const name = set(env['LOADOUT_MARKETPLACE_NAME']) ?? DEFAULT_MARKETPLACE.name;
  if (!MARKETPLACE_NAME.test(name)) throw new LoadoutError('config', `LOADOUT_MARKETPLACE_NAME is ${JSON.stringify(name)} (expected lower-case letters and digits in groups joined by single hyphens, at most 64 characters, e.g. acme-loadouts)`);
  const owner = set(env['LOADOUT_MARKETPLACE_OWNER']);
  const repository = set(env['LOADOUT_PLUGINS_REPOSITORY']) ?? set(env['GITHUB_REPOSITORY']);
  return {
    name,
    owner: owner === undefined ? DEFAULT_MARKETPLACE.owner : { name: owner },
    description: set(env['LOADOUT_MARKETPLACE_DESCRIPTION']) ?? DEFAULT_MARKETPLACE.description,
    ...(repository === undefined ? {} : { git: { repository, branch: set(env['LOADOUT_PLUGINS_BRANCH']) ?? 'plugins' } }),
  };
}

/** Runs the build; returns 0 when written, 1 when a loadout failed its checks. */
export async function buildCommand(options: BuildCommandOptions, out: Write, err: Write): Promise<number> {
  const started = performance.now();
  // Read (and removed from the environment) before the pool's threads start: LOADOUT_SIGNING_KEY, docs/signing.md.
  const signing = takeSigningSettings(process.env);
  const marketplace = readMarketplaceSettings(process.env);
  const cliPublished = set(options.cliPublished) ?? set(process.env['LOADOUT_CLI_PUBLISHED']);
  const allowConsent = consentKindsOf(options.allowConsent, '--allow-consent') ?? consentKindsOf(process.env['LOADOUT_ALLOW_CONSENT'], 'LOADOUT_ALLOW_CONSENT');
  const policy = await namedPolicy(options, process.env);
  const result = await buildCatalogue({
    ...(allowConsent === undefined ? {} : { allowConsent }),
    ...(policy === undefined ? {} : { policy: policy.policy }),
    plugins: options.plugins !== false,
    marketplace,
    ...(cliPublished === undefined ? {} : { cliPublished }),
    ...(signing === undefined ? {} : { signing }),
    root: options.root,
    out: options.out,
    baseUrl: options.baseUrl,
    clean: options.clean,
    ...(options.progress ? { onProgress: (done: number, total: number, id: string) => err(`\r[${done}/${total}] ${id}\u001b[K`) } : {}),
  });
  if (options.progress) err('\r\u001b[K');
  for (const warning of result.warnings) err(`loadout: warning: ${warning}\n`);
  if (!result.written) {
    if (result.bundleDiagnostics.length > 0) {
      err(result.bundleDiagnostics.map((d) => `loadout: ${formatDiagnostic(d)}\n`).join(''));
      const bundles = [...new Set(result.bundleDiagnostics.map((d) => d.loadout))];
      err(`loadout: build refused: bundle${bundles.length === 1 ? '' : 's'} ${bundles.join(', ')} failed ${bundles.length === 1 ? 'its' : 'their'} checks; ${options.out} was left unchanged\n`);
      return EXIT.failed;
    }
    err(formatDiagnostics(result.runs.filter((r) => result.refused.includes(r.source.id))));
    err(`loadout: build refused: ${result.refused.join(', ')} failed checks; ${options.out} was left unchanged\n`);
    return EXIT.failed;
  }
  const versions = result.loadouts.reduce((n, l) => n + l.versions.length, 0);
  const kept = `${result.reused.length === 0 ? '' : `, ${result.reused.length} unchanged`}${signing === undefined ? '' : `, signed by key ${signing.key.published.keyid}`}`;
  const bundles = result.bundles.length === 0 ? '' : ` and ${result.bundles.length} bundle${result.bundles.length === 1 ? '' : 's'}`;
  out(`built ${result.loadouts.length} loadouts${bundles} (${versions} versions${kept}, ${(result.bytes / 1024).toFixed(0)} KB written) into ${options.out} in ${((performance.now() - started) / 1000).toFixed(2)} s\n`);
  return EXIT.ok;
}
