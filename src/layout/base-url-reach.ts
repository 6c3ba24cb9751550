/**
 * Where a catalogue's base URL can be reached from, as the install routes need to know it
 * (issue 57, point 3): whether it names this machine (a loopback host, so that a page served
 * from it is read on the machine that holds the built tree), and whether Claude Code takes
 * plugin zips from it (an `archive` source of a marketplace added by URL).
 *
 * Claude Code's rule, read in its 2.1.330 bundle and checked by installing archive entries
 * whose URLs name each kind of host (2026-11-29): an archive URL must be `https:` and its host
 * must not be a loopback, link-local or cloud-metadata host ("Archive URLs must use https://
 * and must not point at a loopback, link-local, or cloud-metadata host"). Refused: `localhost`
 * and `*.localhost`, 127.0.0.0/8, 0.0.0.0/8, `::1`, `::`, their IPv4-mapped forms, 169.254.0.0/16,
 * fe80::/10, and the cloud-metadata names and addresses listed below; taken: private
 * addresses (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, 100.64.0.0/10, fc00::/7) and any other
 * name. Hosts are compared as the WHATWG URL parser writes them (IPv4 in dotted decimal, so
 * `2130706433` is `127.0.0.1`; IPv6 compressed, in brackets). A name that resolves to a
 * loopback address is not refused by Claude Code's check, nor here. Pure.
 */

/** The cloud-metadata host names Claude Code 2.1.330 refuses (besides `instance-data.<region>.compute.internal`). */
const METADATA_NAMES: ReadonlySet<string> = new Set(['metadata.google.internal', 'metadata.goog', 'metadata', 'instance-data', 'instance-data.ec2.internal']);
/** The cloud-metadata IPv4 addresses it refuses outside 169.254.0.0/16 (Alibaba, Oracle, Azure, …). */
const METADATA_IPV4: ReadonlySet<string> = new Set(['100.100.100.200', '100.96.0.96', '100.80.80.80', '168.63.129.16', '192.0.0.192']);
/** The cloud-metadata IPv6 addresses it refuses, as the URL parser writes them. */
const METADATA_IPV6: ReadonlySet<string> = new Set(['[fd00:ec2::254]', '[fd00:ec2::23]', '[fd00:a9fe:a9fe::1]']);

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.\d{1,3}\.\d{1,3}$/u;
/** `[::ffff:7f00:1]`: the URL parser's form of an IPv4-mapped IPv6 address. */
const MAPPED_IPV4 = /^\[::ffff:([0-9a-f]{1,4}):[0-9a-f]{1,4}\]$/u;

/** The host of `url` as the URL parser writes it, trailing dots removed; undefined for what is not a URL. */
function hostOf(url: string): { protocol: string; host: string } | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  let host = parsed.hostname.toLowerCase();
  while (host.endsWith('.')) host = host.slice(0, -1);
  return { protocol: parsed.protocol, host };
}

/** The first two octets of an IPv4 host, also inside an IPv4-mapped IPv6 address. */
function ipv4Head(host: string): [number, number] | undefined {
  const v4 = IPV4.exec(host);
  if (v4 !== null) return [Number(v4[1]), Number(v4[2])];
  const mapped = MAPPED_IPV4.exec(host);
  if (mapped === null) return undefined;
  const word = parseInt(mapped[1] ?? '0', 16);
  return [word >> 8, word & 0xff];
}

/** True for a loopback host: `localhost`, `*.localhost`, 127.0.0.0/8, 0.0.0.0/8, `::1`, `::`. */
function isLoopbackHost(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || host === '[::]') return true;
  const head = ipv4Head(host);
  return head !== undefined && (head[0] === 127 || head[0] === 0);
}

/** True for a link-local host: 169.254.0.0/16 or fe80::/10. */
function isLinkLocalHost(host: string): boolean {
  const head = ipv4Head(host);
  if (head !== undefined) return head[0] === 169 && head[1] === 254;
  return /^\[fe[89ab][0-9a-f]:/u.test(host);
}

/** True for a cloud-metadata host Claude Code names. */
function isMetadataHost(host: string): boolean {
  return METADATA_NAMES.has(host) || METADATA_IPV4.has(host) || METADATA_IPV6.has(host) || (host.startsWith('instance-data.') && host.endsWith('.compute.internal'));
}

/**
 * True when `url` names this machine (a loopback host, see the module comment), so that a page
 * or an MCP server at that address is used on the machine that holds the built tree, where a
 * folder of the tree is a route that works. False for anything else, and for what is not a URL.
 */
export function namesThisMachine(url: string): boolean {
  const at = hostOf(url);
  return at !== undefined && isLoopbackHost(at.host);
}

/**
 * True when Claude Code takes a plugin zip at `url` (an `archive` source: HTTPS, not a loopback,
 * link-local or cloud-metadata host; see the module comment), so that a marketplace added by URL
 * whose zips are there installs. False for what is not a URL.
 */
export function claudeTakesArchivesFrom(url: string): boolean {
  const at = hostOf(url);
  return at !== undefined && at.protocol === 'https:' && !isLoopbackHost(at.host) && !isLinkLocalHost(at.host) && !isMetadataHost(at.host);
}
