/**
 * HTTP routes of the MCP server (DESIGN.md section 5): `POST /mcp` (stateless Streamable HTTP,
 * JSON answers), `OPTIONS /mcp` for browser clients on allowed origins, 405 for the other
 * methods (no session, so no `GET` stream and nothing to `DELETE`), and the server card at
 * `/mcp/server-card` and `/.well-known/mcp/server-card.json`.
 */
import type { Context, Hono } from 'hono';
import { createHash } from 'node:crypto';
import { problem } from '../server/problem.js';
import { matchesEtag } from '../server/static.js';
import { isAllowedOrigin } from './origin.js';
import { buildServerCard, SERVER_CARD_PATHS, SERVER_CARD_TYPE } from './server-card.js';
import { createMcpHandler, SERVER_INFO, type McpOptions } from './server.js';
import type { ToolContext } from './tools.js';

/** The MCP endpoint path. */
export const MCP_ROUTE = '/mcp';

const ALLOW = 'POST, OPTIONS';
const REQUEST_HEADERS = 'content-type, accept, authorization, mcp-protocol-version, mcp-session-id, last-event-id';

/** A mount function for `createApp({ routes })`: the MCP endpoint and the server card. */
export function mountMcp(ctx: ToolContext, options: McpOptions = {}): (app: Hono) => void {
  const handle = createMcpHandler(ctx, options);
  const card = `${JSON.stringify(buildServerCard(ctx.baseUrl, SERVER_INFO.version), null, 2)}\n`;
  const etag = `"${createHash('sha256').update(card).digest('base64url').slice(0, 27)}"`;

  return (app) => {
    const forbidden = (c: Context): Response | undefined => {
      const origin = c.req.header('origin');
      if (isAllowedOrigin(origin, ctx.baseUrl)) return undefined;
      return problem(403, 'forbidden', `Origin ${JSON.stringify(origin)} may not use ${MCP_ROUTE} (expected no Origin, ${new URL(ctx.baseUrl).origin}, or a localhost origin)`);
    };
    const withCors = (response: Response, origin: string | undefined): Response => {
      if (origin === undefined) return response;
      const headers = new Headers(response.headers);
      headers.set('access-control-allow-origin', origin);
      headers.append('vary', 'Origin');
      headers.set('access-control-expose-headers', 'mcp-session-id, mcp-protocol-version');
      return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
    };

    app.options(MCP_ROUTE, (c) => {
      const denied = forbidden(c);
      if (denied !== undefined) return denied;
      const origin = c.req.header('origin');
      const headers: Record<string, string> = { allow: ALLOW, 'access-control-allow-methods': ALLOW, 'access-control-allow-headers': REQUEST_HEADERS, 'access-control-max-age': '86400' };
      if (origin !== undefined) headers['access-control-allow-origin'] = origin;
      return new Response(null, { status: 204, headers: { ...headers, vary: 'Origin' } });
    });
    app.post(MCP_ROUTE, async (c) => {
      const denied = forbidden(c);
      if (denied !== undefined) return denied;
      return withCors(await handle(c.req.raw), c.req.header('origin'));
    });
    app.all(MCP_ROUTE, (c) =>
      problem(405, 'method_not_allowed', `${c.req.method} is not allowed on ${MCP_ROUTE} (expected POST: this MCP server is stateless and opens no event stream)`, { headers: { allow: ALLOW } }),
    );

    for (const path of SERVER_CARD_PATHS) {
      app.get(path, (c) => {
        const headers = { 'content-type': SERVER_CARD_TYPE, 'cache-control': 'public, max-age=3600', etag };
        if (matchesEtag(c.req.header('if-none-match') ?? null, etag)) return new Response(null, { status: 304, headers });
        return new Response(c.req.method === 'HEAD' ? null : card, { status: 200, headers });
      });
    }
  };
}
