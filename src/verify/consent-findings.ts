/**
 * The consent rule as findings (issue 53, point 3): every hook, permission mode, auto-approval
 * key and wildcard tool grant of a loadout (`capabilities/consent.ts`) is a blocking finding
 * naming the file, the line of its key, the key and the agents that would act on it: `safety`
 * reports those of skills' and subagents' front matter, `mcp` those of MCP servers. A catalogue
 * that publishes such content all the same (`RunChecksOptions.allowConsent`) gets a notice, so
 * the record still says what needs the user's yes.
 */
import { consentRequests, type ConsentKind, type ConsentRequest } from '../capabilities/consent.js';
import type { CheckContext, Finding } from './check.js';

/** 1-based line of the front matter key `key` (`hooks`, `allowed-tools`) in `text`, or 1. */
export function frontMatterLine(text: string, key: string): number {
  const lines = text.split('\n');
  for (let i = 1; i < lines.length && !/^---[ \t]*\r?$/u.test(lines[i] ?? ''); i++) {
    const line = lines[i] ?? '';
    if (line.startsWith(`${key}:`) || line.startsWith(`"${key}":`) || line.startsWith(`'${key}':`)) return i + 1;
  }
  return 1;
}

/** The consent requests of `context`'s loadout whose kind is one of `kinds`. */
export function consentRequestsOf(context: CheckContext, kinds: readonly ConsentKind[]): ConsentRequest[] {
  const capabilities = context.capabilities();
  return capabilities === undefined ? [] : consentRequests(capabilities).filter((r) => kinds.includes(r.kind));
}

/**
 * The findings of the consent requests of `kinds`; `lineOf` locates a request whose key is not
 * in front matter (an MCP server's key). Pure apart from `context`.
 */
export function consentFindings(context: CheckContext, kinds: readonly ConsentKind[], lineOf?: (request: ConsentRequest) => number | undefined): Finding[] {
  return consentRequestsOf(context, kinds).map((request): Finding => {
    const allowed = context.allowConsent.has(request.kind);
    const line = lineOf?.(request) ?? frontMatterLine(context.text(request.file) ?? '', request.key.split('.')[0] ?? request.key);
    return {
      file: request.file,
      line,
      rule: `consent/${request.kind}`,
      message: allowed ? `${request.message}: published because this catalogue allows ${request.kind} content, but the installer asks the user first and plugins leave it out` : `${request.message} (expected content that leaves approval to the user: hooks, permission modes, auto-approval and wildcard tool grants need the user's consent, which a catalogue cannot give)`,
      hint: allowed ? 'Users see it in "What it can run" and must accept it.' : 'Remove the key, or narrow the grant (for example Bash(git status:*) instead of Bash).',
      ...(allowed ? { severity: 'notice' as const } : {}),
    };
  });
}
