/**
 * What is known of the tools loadouts ask for: the commands that provide each, how each prints
 * its version (the flag its documentation gives, and on which stream), and where to get it. A
 * tool not in the table is looked up under its own name, asked `--version`, and its version is
 * the first `MAJOR.MINOR[.PATCH]` number it prints; where to get it is a generic line.
 *
 * Sources of the version flags (checked 2026-11-28): `python --version` (docs.python.org/3/using/cmdline.html;
 * Python 2 printed it on stderr), `node --version` (nodejs.org/api/cli.html), `npm --version`,
 * `uv --version` (docs.astral.sh/uv/reference/cli/), `git --version` (git-scm.com/docs/git),
 * `docker --version` (docs.docker.com/reference/cli/docker/), `deno --version`, `bun --version`,
 * `go version` (pkg.go.dev/cmd/go), `cargo --version`, `rustc --version` (doc.rust-lang.org),
 * `java -version` (on stderr; docs.oracle.com/en/java/javase/21/docs/specs/man/java.html),
 * `dbt --version` (docs.getdbt.com/reference/commands/version), `psql --version`
 * (postgresql.org/docs/current/app-psql.html), `gh --version` (cli.github.com/manual/gh).
 */
import semver from 'semver';

/** How to read one tool's version and where to get it. */
export interface KnownTool {
  /** The commands that provide it, tried in order on `PATH` (`python` is `python3` on most systems). */
  commands: readonly string[];
  /** The arguments that make it print its version. */
  args: readonly string[];
  /** Where its version is read: the pattern's first group (default {@link VERSION_NUMBER}). */
  pattern?: RegExp;
  /** Where to get it; `min` is the lowest version the range allows (e.g. `3.11.0`), when there is a range. */
  get: (min: string | undefined) => string;
}

/** The first `MAJOR.MINOR[.PATCH]` number of a text, not inside a longer dotted number (`go1.21.5` gives 1.21.5, `v20.10.0` 20.10.0). */
export const VERSION_NUMBER = /(?<![\d.])(\d+\.\d+(?:\.\d+)?)/u;

const VERSION_FLAG = ['--version'] as const;
const node = (min: string | undefined): string => `https://nodejs.org/en/download${min === undefined ? '' : ` (or a version manager: \`nvm install ${semver.major(min)}\`)`}`;
const rust = (): string => 'https://rustup.rs (rustup installs cargo and rustc)';

const TOOLS: Readonly<Record<string, KnownTool>> = {
  python: { commands: ['python3', 'python'], args: VERSION_FLAG, get: (min) => `https://www.python.org/downloads/ or \`uv python install${min === undefined ? '' : ` ${semver.major(min)}.${semver.minor(min)}`}\`` },
  python3: { commands: ['python3'], args: VERSION_FLAG, get: (min) => TOOLS['python']?.get(min) ?? '' },
  node: { commands: ['node'], args: VERSION_FLAG, get: node },
  npm: { commands: ['npm'], args: VERSION_FLAG, get: () => `comes with Node.js: ${node(undefined)}` },
  npx: { commands: ['npx'], args: VERSION_FLAG, get: () => `comes with npm and Node.js: ${node(undefined)}` },
  pnpm: { commands: ['pnpm'], args: VERSION_FLAG, get: () => 'https://pnpm.io/installation (or `corepack enable pnpm`)' },
  yarn: { commands: ['yarn'], args: VERSION_FLAG, get: () => 'https://yarnpkg.com/getting-started/install (or `corepack enable yarn`)' },
  deno: { commands: ['deno'], args: VERSION_FLAG, get: () => 'https://docs.deno.com/runtime/getting_started/installation/' },
  bun: { commands: ['bun'], args: VERSION_FLAG, get: () => 'https://bun.sh/docs/installation' },
  uv: { commands: ['uv'], args: VERSION_FLAG, get: () => 'https://docs.astral.sh/uv/getting-started/installation/' },
  git: { commands: ['git'], args: VERSION_FLAG, get: () => 'https://git-scm.com/downloads' },
  gh: { commands: ['gh'], args: VERSION_FLAG, get: () => 'https://cli.github.com' },
  docker: { commands: ['docker'], args: VERSION_FLAG, get: () => 'https://docs.docker.com/get-docker/' },
  go: { commands: ['go'], args: ['version'], get: () => 'https://go.dev/dl/' },
  cargo: { commands: ['cargo'], args: VERSION_FLAG, get: rust },
  rustc: { commands: ['rustc'], args: VERSION_FLAG, get: rust },
  // `openjdk version "21" 2023-09-19` has no MINOR: the quoted version is read whole.
  java: { commands: ['java'], args: ['-version'], pattern: /version "(\d+(?:\.\d+){0,2})/u, get: () => 'https://adoptium.net (Eclipse Temurin) or your system\'s OpenJDK package' },
  dbt: { commands: ['dbt'], args: VERSION_FLAG, get: () => 'https://docs.getdbt.com/docs/core/installation-overview (e.g. `uv tool install dbt-core`)' },
  psql: { commands: ['psql'], args: VERSION_FLAG, get: () => 'https://www.postgresql.org/download/ (the client package, e.g. postgresql-client)' },
  chrome: { commands: ['google-chrome', 'google-chrome-stable', 'chromium', 'chromium-browser', 'chrome'], args: VERSION_FLAG, get: () => 'https://www.google.com/chrome/ (or Chromium from your system\'s packages)' },
};

/** What is known of tool `name` (undefined for a tool not in the table). */
export function knownTool(name: string): KnownTool | undefined {
  return Object.hasOwn(TOOLS, name) ? TOOLS[name] : undefined;
}

/** How a tool is looked up and asked its version: the table's, else its own name and `--version`. */
export function toolProbe(name: string): { commands: readonly string[]; args: readonly string[]; pattern: RegExp } {
  const known = knownTool(name);
  return { commands: known?.commands ?? [name], args: known?.args ?? VERSION_FLAG, pattern: known?.pattern ?? VERSION_NUMBER };
}

/** Where to get tool `name`, wanted in `range` (if any): the table's line, else a generic one. */
export function howToGetTool(name: string, range: string | undefined): string {
  const min = range === undefined ? undefined : (semver.minVersion(range)?.version ?? undefined);
  const known = knownTool(name);
  const wanted = range === undefined ? '' : ` (${range})`;
  if (known !== undefined) return `${known.get(min)}${wanted === '' ? '' : `; wanted${wanted}`}`;
  return `install ${name}${wanted} and put it on PATH (see its documentation)`;
}

/**
 * The version in a tool's output, as MAJOR.MINOR.PATCH with digits only (a missing PATCH is 0;
 * `3.13.0rc1` gives 3.13.0), or undefined when `pattern` finds none.
 */
export function readVersionNumber(output: string, pattern: RegExp = VERSION_NUMBER): string | undefined {
  const found = pattern.exec(output)?.[1];
  if (found === undefined) return undefined;
  const [major = '0', minor = '0', patch = '0'] = found.split('.');
  return [major, minor, patch].map((part) => part.replace(/^0+(?=\d)/u, '')).join('.');
}
