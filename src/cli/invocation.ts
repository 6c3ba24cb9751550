/**
 * The command the user ran, to print in hints and summary lines ("`npx -y <tarball> update`
 * shows what changes") instead of a `loadout` command they may not have (issue 36, point 7).
 * A consumer who ran the catalogue's tarball through npx has no `loadout` on their PATH, and
 * `npx loadout` outside the repository asks the registry for another package.
 *
 * What npx was given is not in the environment when it was a positional spec (`npx -y <url>`):
 * npm keeps it in the `package.json` of the folder it installed the package into,
 * `<cache>/_npx/<hash>/package.json` (`_npx.packages`, npm 7 and later: npm/cli
 * `libnpmexec`), which is where this file runs from. `npx --package=<spec>` also sets
 * `npm_config_package`.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What the prefix is made from: the environment, the running script's path, and a file reader. */
export interface InvocationFacts {
  env: NodeJS.ProcessEnv;
  /** The path of the running bundle or module. */
  script: string;
  /** Reads a file's text; throws when it cannot. */
  readText(path: string): string;
}

/** A spec npx cannot take as its first word: a local path, which npx would run as a command. */
const isLocalSpec = (spec: string): boolean => isAbsolute(spec) || spec.startsWith('.') || spec.startsWith('~') || spec.startsWith('file:');

/** The package spec npx installed the running script from, read from npx's folder; undefined when it was not npx. */
function npxSpec({ script, readText }: InvocationFacts): string | undefined {
  const marker = `${sep}_npx${sep}`;
  const at = script.lastIndexOf(marker);
  if (at < 0) return undefined;
  const hash = script.slice(at + marker.length).split(sep)[0];
  if (hash === undefined || hash === '') return undefined;
  try {
    const pkg = JSON.parse(readText(join(script.slice(0, at + marker.length), hash, 'package.json'))) as { _npx?: { packages?: unknown } };
    const first = Array.isArray(pkg._npx?.packages) ? pkg._npx.packages[0] : undefined;
    return typeof first === 'string' && first !== '' ? first : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The prefix that runs this CLI again as the user ran it: `npx -y <spec>` for a package npx
 * fetched (`npx -y --package=<spec> -- loadout` for a local tarball, which npx cannot take
 * positionally), `npx loadout` for one npm runs from a project's `node_modules`, else `loadout`.
 * Pure given `facts`.
 */
export function invocationOf(facts: InvocationFacts): string {
  const spec = facts.env['npm_config_package'] || npxSpec(facts);
  if (spec !== undefined && spec !== '') return isLocalSpec(spec) ? `npx -y --package=${spec} -- loadout` : `npx -y ${spec}`;
  if (facts.env['npm_command'] === 'exec') return 'npx loadout';
  return 'loadout';
}

let cached: string | undefined;

/** {@link invocationOf} this process (its environment and the script node runs), once. */
export function thisInvocation(): string {
  cached ??= invocationOf({ env: process.env, script: process.argv[1] ?? fileURLToPath(import.meta.url), readText: (path) => readFileSync(path, 'utf8') });
  return cached;
}

/** A consumer command written in backticks in a message or hint: `` `loadout update` ``. */
const CONSUMER_COMMAND = /`loadout (?=(?:install|update|uninstall|recover|status|outdated|search)\b)/gu;

/**
 * `text` with each consumer command written `` `loadout <command> …` `` run by `prefix`
 * instead (`` `npx -y <url> update` ``); the maintainers' commands (`loadout build`) stay as
 * they are, since the consumer's CLI does not have them. Pure.
 */
export function withInvocation(text: string, prefix: string): string {
  return prefix === 'loadout' ? text : text.replace(CONSUMER_COMMAND, `\`${prefix} `);
}
