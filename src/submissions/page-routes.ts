/**
 * The HTML side of the submissions API (docs/http-api.md "The pages"; DESIGN.md section 5):
 * - `GET /submissions/<id>/`: the status page, rendered from the status document
 *   (`src/pages/status.ts`) with the pages' CSP; `/submissions/<id>` redirects to it; an id
 *   that is malformed or unknown is a 404 page;
 * - with a hosted challenge vendor, the docs page (where the form is) gets the pages' CSP
 *   widened to that vendor's origins, so its widget can load; ALTCHA needs nothing widened.
 */
import type { Hono } from 'hono';
import { renderStatusNotFound, renderStatusPage } from '../pages/status.js';
import { PAGE_CSP, pageCspWith } from '../server/static.js';
import type { Stores } from '../storage/stores.js';
import type { ChallengeProvider, ChallengeVerifier } from './challenge.js';
import { statusDocument } from './status.js';

/** The origins each vendor's widget loads from (Turnstile and hCaptcha CSP documentation). */
export const VENDOR_ORIGINS: Record<Exclude<ChallengeProvider, 'altcha'>, string[]> = {
  turnstile: ['https://challenges.cloudflare.com'],
  hcaptcha: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/u;

/** Dependencies of {@link mountPageRoutes}. */
export interface PageRoutesOptions {
  stores: Stores | undefined;
  /** `{base_url}`, for the pages' canonical addresses. */
  baseUrl: string;
  challenge: ChallengeVerifier | undefined;
}

function html(body: string, status: number, csp = PAGE_CSP): Response {
  return new Response(body, {
    status,
    headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': csp, 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' },
  });
}

/** Mounts the status page and, for a vendor, the docs page's CSP. */
export function mountPageRoutes(app: Hono, options: PageRoutesOptions): void {
  const provider = options.challenge?.provider;
  if (provider !== undefined && provider !== 'altcha') {
    const csp = pageCspWith(VENDOR_ORIGINS[provider]);
    app.use('/docs/*', async (c, next) => {
      await next();
      if (c.res.headers.get('content-security-policy') === PAGE_CSP) c.res.headers.set('content-security-policy', csp);
    });
  }

  app.get('/submissions/:id', (c) => c.redirect(`/submissions/${encodeURIComponent(c.req.param('id'))}/`, 301));
  app.get('/submissions/:id/', async (c) => {
    const id = c.req.param('id');
    const stored = UUID.test(id) && options.stores !== undefined ? await options.stores.submissions.get(id) : undefined;
    if (stored === undefined) return html(renderStatusNotFound(options.baseUrl, id), 404);
    return html(renderStatusPage(options.baseUrl, statusDocument(stored)), 200);
  });
}
