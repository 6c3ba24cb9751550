/**
 * Which `Host` a `loadout dev` server answers (SECURITY.md, "`loadout dev` answers only its own
 * names"). A page of another site can make the browser send requests to the session by DNS
 * rebinding: its name is made to resolve to the session's address, and the page, of the same
 * origin as its name, reads the answers (work in progress, the build's report). Such a request
 * carries the page's name in `Host`, so the session answers only the names it is bound to and
 * `localhost`, any port; another `Host` is answered 421 Misdirected Request (RFC 9110 section
 * 15.5.20: "the server is not able to produce a response" for this target's authority). The
 * same guard as the MCP transport's `Origin` check (mcp/origin.ts) and the dev servers of Vite
 * and webpack (`server.allowedHosts`, `allowedHosts`).
 */

/** The host names a session answers, as {@link allowedHostsOf} makes them. */
export interface AllowedHosts {
  /** Host names, lower case, IPv6 addresses in brackets (`[::1]`). */
  names: ReadonlySet<string>;
  /** True when bound to every address (`0.0.0.0`, `::`): any IP address is also answered. */
  anyAddress: boolean;
}

const WILDCARDS = new Set(['0.0.0.0', '[::]', '[0:0:0:0:0:0:0:0]']);

/**
 * The hosts a session bound to `host` (the `--host` option: an address or a name) answers:
 * - `localhost` always;
 * - `host` itself (`127.0.0.1`, `[::1]`, `dev.example`), lower case;
 * - bound to `localhost`: `127.0.0.1` and `[::1]` too, the addresses it resolves to;
 * - bound to every address (`0.0.0.0`, `::`): any IP address, which a rebinding page cannot make
 *   the browser send (its `Host` is the page's name), but no name other than `localhost`.
 * Pure.
 */
export function allowedHostsOf(host: string): AllowedHosts {
  const bound = hostName(host);
  const names = new Set(['localhost', bound]);
  if (bound === 'localhost') {
    names.add('127.0.0.1');
    names.add('[::1]');
  }
  return { names, anyAddress: WILDCARDS.has(bound) };
}

/** `host` lower case, an IPv6 address in brackets. */
function hostName(host: string): string {
  const lower = host.trim().toLowerCase();
  return lower.includes(':') && !lower.startsWith('[') ? `[${lower}]` : lower;
}

/** A `Host` value: a name or IPv4 address, or an IPv6 address in brackets; then an optional port (RFC 9110 section 7.2, RFC 3986 section 3.2.2). */
const HOST_VALUE = /^(\[[0-9a-f:.]+\]|[^\s:[\]]+)(?::[0-9]{0,5})?$/u;
const IPV4 = /^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])$/u;

/**
 * True when a request whose `Host` header is `value` (undefined: none, an HTTP/1.0 request)
 * may be answered: its host, compared without case and with any port, is one of `allowed`.
 * A request without `Host` comes from no browser, which always sends one: it is answered.
 * Pure.
 */
export function isAllowedHost(value: string | undefined, allowed: AllowedHosts): boolean {
  if (value === undefined) return true;
  const match = HOST_VALUE.exec(value.trim().toLowerCase());
  const name = match?.[1];
  if (name === undefined) return false;
  if (allowed.names.has(name)) return true;
  return allowed.anyAddress && (IPV4.test(name) || (name.startsWith('[') && URL.canParse(`http://${name}/`)));
}

/** The names `allowed` answers, for a message: `127.0.0.1, localhost (any port)`. */
export function describeAllowedHosts(allowed: AllowedHosts): string {
  return `${[...allowed.names].sort().join(', ')}${allowed.anyAddress ? ' or an IP address' : ''} (any port)`;
}
