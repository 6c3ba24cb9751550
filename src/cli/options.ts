/**
 * The one place where the CLI resolves what a command runs with, as unjs/changelogen resolves
 * its configuration (STYLE.md): defaults, then the environment, then the flags, into a
 * {@link ResolvedCliOptions} that each command's action reads with its own flags (flags.ts).
 *
 * The environment's settings that load more code (the submissions' challenge settings in
 * config.ts) are read on first use, so a command that does not need them does not load them.
 */
import type { ResolvedConfig } from './config.js';

/** What every command of one run may read besides its own flags. */
export interface ResolvedCliOptions {
  /** `--root`, the catalogue root that holds `loadouts/` (default: the current folder). */
  root: string;
  /** Today's date as `YYYY-MM-DD` (UTC), for `new` and `import`. */
  today: string;
  /** Show progress on stderr: only on a terminal and outside CI (`CI` unset; DESIGN.md section 2: quiet in CI). */
  progress: boolean;
  /** The actor `submissions accept` and `reject` record without `--by`: `USER`, else `maintainer`. */
  maintainer: string;
  /** The environment commands read their own variables from (`GITHUB_*`, `LOADOUT_BOT_*`). */
  env: NodeJS.ProcessEnv;
  /**
   * The environment's configuration (config.ts: `DATABASE_URL`, `LOADOUT_BASE_URL`, `PORT`, the
   * submissions' settings), read once, on the first call.
   * @throws LoadoutError `config` naming a malformed variable.
   */
  config(): Promise<ResolvedConfig>;
}

/** Where {@link resolveCliOptions} reads from: the global flags, the environment and the clock. */
export interface CliSources {
  /** `--root` as parsed (commander applies its default, the current folder). */
  root: string;
  env: NodeJS.ProcessEnv;
  now: Date;
  /** Whether stderr is a terminal. */
  stderrIsTTY: boolean;
}

/** Resolves the options shared by every command (see the module comment). Reads nothing but `sources`. */
export function resolveCliOptions(sources: CliSources): ResolvedCliOptions {
  const { root, env, now, stderrIsTTY } = sources;
  let config: Promise<ResolvedConfig> | undefined;
  return {
    root,
    today: now.toISOString().slice(0, 10),
    progress: stderrIsTTY && env['CI'] === undefined,
    maintainer: env['USER'] ?? 'maintainer',
    env,
    config: () => (config ??= import('./config.js').then(({ resolveConfig }) => resolveConfig(env))),
  };
}
