/**
 * `Origin` validation for the MCP endpoint (MCP specification, "Transports", Streamable HTTP,
 * security warning: servers MUST validate `Origin` to prevent DNS rebinding, and answer 403
 * when it is present and not allowed). Allowed: the origin of `{base_url}` and loopback origins
 * (`localhost`, `127.0.0.1`, `[::1]` on any port), which local tools such as the MCP Inspector
 * use. A request without `Origin` (not from a browser) is allowed.
 */

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** True when a request with this `Origin` header value may use the MCP endpoint. */
export function isAllowedOrigin(origin: string | null | undefined, baseUrl: string): boolean {
  if (origin === null || origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // includes the opaque origin "null"
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (url.origin === originOf(baseUrl)) return true;
  return LOOPBACK_HOSTS.has(url.hostname) || url.hostname.endsWith('.localhost');
}

function originOf(baseUrl: string): string | undefined {
  try {
    return new URL(baseUrl).origin;
  } catch {
    return undefined;
  }
}
