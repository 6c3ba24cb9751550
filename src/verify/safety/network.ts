/**
 * Network use that the record must declare (`security.network`, spec "Security": "whether the
 * loadout's content uses the network"). Content uses the network when it has the agent run
 * something that reaches another host: a download (`curl`/`wget` of a remote URL), a package
 * install (`npm install`, `npx`, `pip install`, …), a clone or push, a script that imports an
 * HTTP client, or an MCP server that is remote or fetched at start (`url`, `npx`, `uvx`, …).
 * A link to documentation in prose is not network use, nor is a request to `localhost`.
 * In Markdown only code (fenced blocks and code spans) counts as a command, plus prose that
 * tells the agent to fetch or download a URL.
 */
import type { Finding } from '../check.js';
import { NeedleSet } from '../text/needles.js';
import type { ScanText } from './scan-text.js';
import { isWarned } from './warnings.js';

/**
 * A URL of another host. The host may be elided or a placeholder (`https://…/status`,
 * `https://<host>/`, `https://{host}/`, `https://$HOST/`): the command still reaches a host.
 * Loopback addresses and the documentation domains example.com, .org and .net (RFC 2606) do not.
 */
const REMOTE_URL = String.raw`(?:https?|ftp):\/\/(?!(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\])(?:[:/]|$))(?!(?:[\w-]+\.)*example\.(?:com|org|net)\b)(?:[\w.-]+|…|\.\.\.|<[\w.-]+>|\{\{?[\w.-]+\}\}?|\$\{?\w+\}?)`;

interface NetworkRule {
  needles: string[];
  pattern: RegExp;
  what: string;
  /** A further test of a match's text, for what an expression cannot say simply. */
  accept?: (match: string) => boolean;
}

/** Rules over code: fenced blocks and code spans in Markdown, the whole text of other files. */
const CODE_RULES: NetworkRule[] = [
  { needles: ['curl', 'wget'], pattern: new RegExp(String.raw`\b(?:curl|wget)\b(?:(?!\b(?:curl|wget)\b)[^\n])*?${REMOTE_URL}`, 'giu'), what: 'downloads from a remote URL' },
  { needles: ['invoke-', 'iwr', 'irm'], pattern: new RegExp(String.raw`\b(?:Invoke-WebRequest|Invoke-RestMethod|iwr|irm)\b(?:(?!\b(?:Invoke-WebRequest|Invoke-RestMethod|iwr|irm)\b)[^\n])*?${REMOTE_URL}`, 'giu'), what: 'downloads from a remote URL' },
  {
    // Language registries. The system package manager (apt, brew, winget, …) is a notice of its own (`shell-rules.ts`).
    needles: ['install', 'npx', 'add', 'dlx', 'bunx', 'uvx', 'pipx', ' get ', 'sync', 'require', 'npm i', 'npm ci'],
    pattern:
      /(?:^|[\s;&|(`$])(?:(?:npm|pnpm|yarn|bun)\s+(?:install|i|add|ci)\b|npx\s+(?:-y\s+|--yes\s+)?[@\w]|(?:pnpm\s+dlx|bunx|uvx|pipx\s+install)\s+\S|(?:pip[0-9.]*|python[0-9.]*\s+-m\s+pip)\s+install\s+\S|uv\s+(?:add|sync|pip\s+install|tool\s+install)\b|poetry\s+(?:add|install)\b|cargo\s+(?:install|add)\s|go\s+(?:get|install)\s+\S|gem\s+install\s|bundle\s+install\b|composer\s+(?:require|install)\b|dotnet\s+(?:add\s+(?:\S+\s+)?package|tool\s+install)\s|Install-Module\s|Install-Package\s)/gimu,
    what: 'installs packages from a registry',
  },
  { needles: ['git '], pattern: /(?:^|[\s;&|(`$])git\s+(?:clone|push|pull|fetch)\b/gimu, what: 'talks to a git remote' },
  { needles: ['docker', 'podman'], pattern: /(?:^|[\s;&|(`$])(?:docker|podman)\s+(?:pull|push)\s/gimu, what: 'pulls or pushes a container image' },
  {
    // ssh always reaches a host; scp, sftp and rsync when a path names one ("host:path", "user@host:").
    needles: ['ssh ', 'scp ', 'sftp ', 'rsync '],
    pattern: /(?:^|[\s;&|(`$])(?:ssh\s+(?:-\S+\s+)*[\w.@-]+|sftp\s|(?:scp|rsync)\s[^\n]*?\s[\w.-]+(?:@[\w.-]*)?:)/gimu,
    what: 'connects to another host (ssh, scp, rsync)',
  },
  { needles: ['gh '], pattern: /(?:^|[\s;&|(`$])gh\s+(?:api|pr|issue|repo|release|run|workflow|search|gist|secret|label|project|browse)\b/gimu, what: 'calls GitHub with the gh CLI' },
];

/** Rules over programs (Python, JavaScript, …): an HTTP client in use. Shell commands in their strings are messages, not commands. */
const PROGRAM_RULES: NetworkRule[] = [
  { needles: ['fetch(', 'axios', 'requests.', 'urlopen', 'httpx.'], pattern: new RegExp(String.raw`\b(?:fetch|axios(?:\.\w+)?|requests\.\w+|urlopen|httpx\.\w+)\(\s*[rfb]?["'\x60]${REMOTE_URL}`, 'giu'), what: 'requests a remote URL' },
  { needles: ['requests', 'urllib', 'httpx', 'aiohttp', 'http.client'], pattern: /^[^\S\n\r\u2028\u2029]*(?:import|from)\s+(?:requests|urllib\.request|urllib3|httpx|aiohttp|http\.client)\b/gmu, what: 'imports an HTTP client' },
  { needles: ['socket', 'net'], pattern: /^[^\S\n\r\u2028\u2029]*(?:import|from)\s+(?:socket|asyncio\.streams)\b|\brequire\(\s*["'](?:node:)?(?:net|tls|dgram)["']\)|\bfrom\s+["'](?:node:)?(?:net|tls|dgram)["']/gmu, what: 'opens network sockets' },
  // Node's http and https modules serve as often as they request: only their client calls count.
  {
    needles: ['fetch(', 'axios', 'node-fetch', 'undici', 'http.get', 'http.request', 'https.get', 'https.request'],
    pattern: /\bfetch\(|\brequire\(\s*["'](?:axios|node-fetch|undici)["']\)|\bfrom\s+["'](?:axios|node-fetch|undici)["']|\bhttps?\.(?:get|request)\(/gu,
    what: 'makes HTTP requests',
  },
  { needles: ['invoke-webrequest', 'invoke-restmethod'], pattern: /\bInvoke-(?:WebRequest|RestMethod)\b/giu, what: 'makes HTTP requests' },
];

/**
 * Prose that tells the agent to get something from a URL, or to send something to one. A
 * verb inside a link's text ("[Send feedback](https://…)") names a page, it is no instruction;
 * nor is a link a few clauses after a verb ("a tool call (the pattern in the official
 * [sample](https://…))"): a link's address counts only when at most a few words stand between
 * the verb and the link ("Download [the schema](https://…)").
 */
const PROSE_RULE: NetworkRule = {
  needles: ['http'],
  pattern: new RegExp(String.raw`(?<!\[[^\]\n]{0,80})\b(?:fetch|download|retrieve|scrape|crawl|pull|curl|wget|call|post|send|upload|submit)\b[^.\n]{0,60}?${REMOTE_URL}`, 'giu'),
  what: 'tells the agent to fetch from or send to a remote URL',
  accept: (match) => {
    // The match ends with the URL's host.
    const url = /(?:https?|ftp):\/\/\S*$/u.exec(match)?.index ?? 0;
    if (!match.slice(0, url).endsWith('](')) return true;
    const open = match.lastIndexOf('[', url);
    return /^\w+[\s\w'’-]{0,30}$/u.test(match.slice(0, open));
  },
};

/** Every needle of every rule, found in one pass over a file. */
export const NETWORK_NEEDLES = new NeedleSet([...CODE_RULES, ...PROGRAM_RULES, PROSE_RULE].flatMap((r) => r.needles));

/** How a file is read for network use: Markdown, a program (Python, JavaScript, …), or commands and configuration (shell scripts, YAML, …). */
export type NetworkReading = 'markdown' | 'program' | 'commands';

const PROGRAM = /\.(?:py|js|mjs|cjs|ts|mts|cts|rb|pl)$/iu;

/** How to read the file `path` whose text starts with `text`. */
export function networkReading(path: string, text: string): NetworkReading {
  if (/\.(?:md|mdc|markdown)$/iu.test(path)) return 'markdown';
  if (text.startsWith('#!')) return /^#![^\n]*\b(?:ba|z|k|da)?sh\b|^#![^\n]*\bpwsh\b/u.test(text) ? 'commands' : 'program';
  return PROGRAM.test(path) ? 'program' : 'commands';
}

/** One network use of a file: its line, what it does, and the host it reaches when the text names one. */
export interface NetworkUse {
  line: number;
  what: string;
  /** Lower-case host of the URL the use names, a package registry's host for an install, or null when the text names none. */
  host: string | null;
}

/** The host of the first URL in `text` (lower case, with its port), a placeholder as written (`<host>`, `$HOST`), or null. */
function urlHost(text: string): string | null {
  const match = /(?:https?|ftp):\/\/([^\s/?#)'"`<>\]]+|<[\w.-]+>|\{\{?[\w.-]+\}\}?)/iu.exec(text);
  const host = match?.[1]?.toLowerCase().replace(/^[^@]*@/u, '');
  return host === undefined || host === '' || /^(?:…|\.{3})$/u.test(host) ? null : host;
}

/** The registry a package-install command reaches (each tool's default registry). */
const REGISTRIES: readonly [RegExp, string][] = [
  [/\b(?:npm|pnpm|yarn|bun|npx|bunx|pnpx)\b/iu, 'registry.npmjs.org'],
  [/\b(?:pip[0-9.]*|uvx?|pipx|poetry)\b/iu, 'pypi.org'],
  [/\bcargo\b/iu, 'crates.io'],
  [/\bgo\b/iu, 'proxy.golang.org'],
  [/\b(?:gem|bundle)\b/iu, 'rubygems.org'],
  [/\bcomposer\b/iu, 'repo.packagist.org'],
  [/\bdotnet\b/iu, 'api.nuget.org'],
  [/\bInstall-(?:Module|Package)\b/iu, 'www.powershellgallery.com'],
];

/** The host a matched use reaches: the URL it names, the registry of an install, GitHub's API for `gh`, or null. */
function hostOfUse(rule: NetworkRule, match: string): string | null {
  const url = urlHost(match);
  if (url !== null) return url;
  if (rule.what === 'installs packages from a registry') return REGISTRIES.find(([pattern]) => pattern.test(match))?.[1] ?? null;
  if (rule.what === 'calls GitHub with the gh CLI') return 'api.github.com';
  return null;
}

/**
 * Every network use of a file, in line order, each rule's uses and host once per line.
 * `reading` defaults to {@link networkReading} of the file. Pure.
 */
export function listNetworkUses(scan: ScanText, reading: NetworkReading = networkReading(scan.path, scan.text)): NetworkUse[] {
  return scanNetwork(scan, reading, false);
}

/**
 * Where a file first uses the network, or undefined. `reading` defaults to
 * {@link networkReading} of the file; a boolean (the earlier "is a script" flag) is accepted
 * and ignored, since the reading follows from the path and the shebang. Pure.
 */
export function findNetworkUse(scan: ScanText, readingOrLegacy?: NetworkReading | boolean): { line: number; what: string } | undefined {
  const reading = typeof readingOrLegacy === 'string' ? readingOrLegacy : networkReading(scan.path, scan.text);
  const first = scanNetwork(scan, reading, true)[0];
  return first === undefined ? undefined : { line: first.line, what: first.what };
}

/** The uses of `scan`: with `firstOnly`, each rule stops at its first use and the code regions at the first region with one. */
function scanNetwork(scan: ScanText, reading: NetworkReading, firstOnly: boolean): NetworkUse[] {
  const hits: NetworkUse[] = [];
  const seen = new Set<string>();
  // A rule runs only when the file has one of its needles.
  const found = scan.view.needles(NETWORK_NEEDLES);
  const present = (rule: NetworkRule): boolean => rule.needles.some((n) => found.has(n));
  const tryRules = (text: string, rules: NetworkRule[], offset = 0): void => {
    for (const rule of rules) {
      const global = rule.pattern;
      global.lastIndex = 0;
      for (let m = global.exec(text); m !== null; m = global.exec(text)) {
        const line = scan.lines.lineOf(offset + m.index + (m[0].length - m[0].trimStart().length));
        if ((rule.accept?.(m[0]) ?? true) && !isWarned(scan, line, { start: offset + m.index, end: offset + m.index + m[0].length })) {
          const host = hostOfUse(rule, m[0]);
          const key = `${line}\n${rule.what}\n${host ?? ''}`;
          if (!seen.has(key)) hits.push({ line, what: rule.what, host });
          seen.add(key);
          if (firstOnly) break;
        }
      }
    }
  };
  if (reading === 'program') tryRules(scan.text, PROGRAM_RULES.filter(present));
  else {
    const rules = CODE_RULES.filter(present);
    // Regions come in order: the first with a use holds the file's first use in code.
    for (const r of rules.length === 0 ? [] : scan.codeRegions) {
      tryRules(scan.text.slice(r.start, r.end), rules, r.start);
      if (firstOnly && hits.length > 0) break;
    }
  }
  if (scan.markdown && present(PROSE_RULE)) tryRules(scan.view.prose, [PROSE_RULE]);
  return hits.sort((a, b) => a.line - b.line);
}

/** MCP server commands that fetch the server from a registry each time they start. */
const FETCHING_LAUNCHERS = new Set(['npx', 'uvx', 'bunx', 'pnpx', 'pipx', 'docker', 'podman']);

/** Why an MCP server uses the network, or undefined: remote (`url`) or fetched at start. */
export function mcpServerNetworkUse(server: { command?: unknown; url?: unknown }): string | undefined {
  if (typeof server.url === 'string') return `is a remote server (${server.url})`;
  if (typeof server.command === 'string') {
    const base = server.command.split(/[\\/]/u).pop() ?? '';
    if (FETCHING_LAUNCHERS.has(base)) return `starts with ${base}, which fetches the server from a registry`;
  }
  return undefined;
}

/** The finding for network use the record does not declare. */
export function undeclaredNetworkFinding(file: string, line: number | undefined, what: string): Finding {
  return {
    file,
    ...(line === undefined ? {} : { line }),
    rule: 'network/undeclared',
    message: `uses the network (${what}) but security.network is false (expected security.network: true in loadout.yaml)`,
    hint: 'Set security.network: true, or remove the network use.',
  };
}
