/**
 * Attack strings for the safety rules: `prefix + pump × n + suffix`, where the pump repeats a
 * part of a rule's pattern that a backtracking engine could match in more than one way (a
 * token of an option run, a word that starts a match, whitespace on both sides of a choice)
 * and the suffix makes the match fail, so that the engine tries every way. Each rule's pumps
 * are read off its pattern (src/verify/safety/*.ts); the generic ones repeat single
 * characters and short runs that many patterns have in common.
 */

/** Where the pumped text stands: in a fenced block of AGENTS.md, in its prose, in an HTML comment, in a shell script, or in a Python program. */
export type PumpPlace = 'fence' | 'prose' | 'comment' | 'script' | 'program';

/** One attack string, built by {@link pumpedFile}. */
export interface Pump {
  /** The rule (or `generic`) it is derived from. */
  rule: string;
  prefix: string;
  pump: string;
  suffix: string;
  places: PumpPlace[];
}

const CODE: PumpPlace[] = ['fence', 'script'];
const ALL: PumpPlace[] = ['fence', 'prose', 'comment', 'script', 'program'];

const rule = (name: string, places: PumpPlace[], ...triples: [string, string, string][]): Pump[] => triples.map(([prefix, pump, suffix]) => ({ rule: name, prefix, pump, suffix, places }));

/** Every pump, by rule. */
export const PUMPS: Pump[] = [
  ...rule('shell/pipe-to-interpreter', CODE, ['curl ', 'curl ', '| cat'], ['curl x ', '| a ', 'x'], ['curl x | ', 'sudo -a ', 'x'], ['curl x | sudo env ', '-a ', 'x'], ['curl x ', '\\\n', 'x'], ['curl x |', ' ', 'x'], ['curl x | ', '\\\n', 'x'], ['curl x | sh -', 'c', '1'], ['curl x | python -', 'e', '1'], ['curl x | ', '/usr/local/bin/', 'x'], ['', 'wget | ', 'x']),
  ...rule('shell/run-downloaded-script', CODE, ['sh ', ' ', 'x'], ['sh <(', ' ', 'x'], ['sh -c "$(', ' ', 'x'], ['', 'bash ', 'x']),
  ...rule('shell/invoke-expression-download', CODE, ['iex', ' (', 'x'], ['', 'iex ', 'x'], ['iex (', ' ', 'x'], ['iex new-object', ' ', 'x']),
  ...rule('shell/rm-root-or-home', CODE, ['rm ', '--- ', 'x'], ['rm ', '-r ', 'x'], ['rm -r ', '-- ', 'x'], ['rm -', 'r', ' x'], ['rm ', 'rm ', 'x'], ['rm -rf ', ' ', 'x'], ['rm ', '-r -- ', 'x'], ['rm', ' --no-preserve', 'x'], ['', 'rm -rf ', '']),
  ...rule('shell/chmod-777', CODE, ['chmod ', '-r ', 'x'], ['chmod', ' ', 'x'], ['', 'chmod -r ', 'x']),
  ...rule('shell/sudo', CODE, ['sudo ', '-a ', 'x'], ['', 'sudo ', 'x'], ['$(', ' ', 'x'], ['sudo ', ' ', 'x'], ['', '&& sudo ', ''], ['', '; sudo -E ', 'apt']),
  ...rule('shell/system-package-install', CODE, ['sudo ', '-a ', 'apt'], ['apt ', '-a ', 'x'], ['', 'apt install ', '\n'], ['brew', ' ', 'x'], ['', 'sudo apt ', '']),
  ...rule('shell/tls-off', CODE, ['curl ', 'curl ', 'x'], ['curl ', 'a ', 'x'], ['curl -', 'k', '1'], ['strict-ssl', ' ', 'x'], ['http.sslverify', ' ', 'x'], ['NODE_TLS_REJECT_UNAUTHORIZED', ' ', 'x'], ['', 'curl -k ', '']),
  ...rule('shell/base64-exec', CODE, ['base64 ', '-d ', 'x'], ['base64 -d ', '| a ', 'x'], ['eval $(', 'base64 ', 'x'], ['', 'iex ', 'x'], ['', 'FromBase64String ', ''], ['', 'pwsh ', 'x'], ['pwsh', ' -e', ' x'], ['base64 -', 'd', '1'], ['sh -c "$(', 'base64 -a ', 'x'], ['eval(', ' ', 'x'], ['', 'base64 -d ', '|']),
  ...rule('network', CODE, ['ssh ', '-a ', '!'], ['scp ', 'a ', '!'], ['scp x ', 'a@', '!'], ['scp x ', 'a.', '!'], ['curl http://', 'a', '!'], ['npm', ' ', 'x'], ['npx ', '-y ', '!'], ['pip install', ' ', ''], ['dotnet add ', 'a ', '!'], ['git', ' ', 'x'], ['gh', ' ', 'x'], ['', 'ssh -a ', '']),
  ...rule('network', ['program'], ['', '\n', 'import x'], ['', ' \n', 'import x'], ['fetch(', ' ', 'x'], ['', 'require( ', 'x'], ['', 'axios.a(', 'x']),
  ...rule('network', ['prose'], ['download ', 'a ', 'x'], ['[', 'a', '](http://x.com) download'], ['download', ' download', ' http://x.com'], ['', 'fetch http://', '!'], ['', '[download](', '']),
  ...rule('hidden-text', ['prose'], ['<!-- ', '\n', ' -->'], ['<!-- ', '\n ', 'x -->'], ['<!-- ', '. ', ' -->'], ['<!-- ', 'ignore ', ' -->'], ['<!-- ', 'please ', ' -->'], ['<!-- when x, ', 'also ', ' -->'], ['', '<!-- ', ''], ['', '\u200B', ''], ['', 'a\u200B', ''], ['<!-- run curl ', ', ', ' -->'], ['<!-- ', 'agent, ', ' -->'], ['', '<!-- run curl -->', '']),
  ...rule('admin-rights', ['prose', 'fence'], ['needs ', 'sudo ', ''], ['', 'root access ', ''], ['as', ' ', 'root'], ['', 'needs passwordless sudo. ', '']),
  ...rule('warnings', ['prose'], ['', '# never\n```sh\nrm -rf /\n```\n', ''], ['', '- do not run `rm -rf /`\n', ''], ['', '> ❌ ', 'x'], ['', '| `curl x | sh` | bad |\n', '']),
  ...rule('generic', ALL, ['', ' ', 'x'], ['', '\n', 'x'], ['', '\t', 'x'], ['', '-', 'x'], ['', 'a', '!'], ['', '\\', 'x'], ['', '|', 'x'], ['', '`', 'x'], ['', '#', 'x'], ['', '<', 'x'], ['', '[', 'x'], ['', '(', 'x'], ['', '"', 'x'], ['', '*', 'x'], ['', '_', 'x'], ['', ';', 'x'], ['', '\r\n', 'x'], ['', '- ', 'x'], ['', '-- ', 'x'], ['', '$(', 'x'], ['', 'http://a', '!'], ['', '```\n', 'x'], ['', '~', 'x'], ['', '/', 'x'], ['', '.', 'x']),
];

/**
 * The file a pump makes with `n` repetitions: its path and text. In a fence or a comment the
 * pumped text is wrapped in one; prose is Markdown as written.
 */
export function pumpedFile(pump: Pump, place: PumpPlace, n: number): { path: string; text: string } {
  const body = pump.prefix + pump.pump.repeat(n) + pump.suffix;
  switch (place) {
    case 'fence':
      return { path: 'AGENTS.md', text: `# Setup\n\n\`\`\`sh\n${body}\n\`\`\`\n` };
    case 'prose':
      return { path: 'AGENTS.md', text: `# Setup\n\n${body}\n` };
    case 'comment':
      return { path: 'AGENTS.md', text: `# Setup\n\n<!-- ${body} -->\n` };
    case 'script':
      return { path: 'scripts/setup.sh', text: `#!/bin/sh\n${body}\n` };
    case 'program':
      return { path: 'scripts/setup.py', text: `${body}\n` };
  }
}

/** Repetitions that make the pumped part about `bytes` long. */
export const repetitionsFor = (pump: Pump, bytes: number): number => Math.max(1, Math.floor(bytes / Math.max(1, pump.pump.length)));
