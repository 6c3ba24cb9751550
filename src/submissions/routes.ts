/**
 * The submissions API (spec "Endpoints" and "Authentication"; DESIGN.md section 5):
 * `GET /api/v1/submissions/session`, `GET /api/v1/submissions/challenge` (ALTCHA),
 * `POST /api/v1/submissions` and `GET /api/v1/submissions/<id>`, plus the status page
 * `/submissions/<id>/` (page-routes.ts), mounted into the app through its `routes` hook.
 *
 * POST answers, in the order they are decided: 503 `submissions_closed` (closed, no
 * database), 429 per client address; with an API key (agents) 401 (no, wrong or revoked key),
 * 429 per API key, 503 `checks_busy` with `Retry-After` (every place in the checks' queue is
 * taken: check-queue.ts), all before the body is read; without one, 429 with `Retry-After`
 * (the address is sending `bodiesPerAddress` such bodies already: bodies-per-address.ts); then
 * 415, 413, 408 (the body did not arrive within `bodyTimeoutMs`), 400; without an API key
 * (browsers) 401 (no, forged, expired or used form token), 503 (no
 * configured challenge), 503 `checks_busy`, 401 (no challenge token), 403 (challenge refused,
 * or its solution used already); then 422 (every field violation at once), 409 (id taken), 422
 * `checks_timeout` (the checks ran out of their time budget; the problem names the check and
 * the file), 202. Only a sender whose credential passed takes a place in the checks' queue
 * (issue 53, point 7: unauthenticated bodies trickled slowly held every place). A submission
 * whose client went away before it was stored is dropped and not stored (service.ts). A
 * challenge solution is spent once it passes, also when the body then fails (the widget
 * solves a new one).
 */
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, Hono } from 'hono';
import { problem, problemResponse, makeProblem } from '../server/problem.js';
import type { Stores } from '../storage/stores.js';
import { authenticateApiKey } from './api-key.js';
import { BodiesPerAddress, BODIES_RETRY_AFTER_SECONDS, DEFAULT_BODIES_PER_ADDRESS } from './bodies-per-address.js';
import { DEFAULT_BODY_TIMEOUT_SECONDS, readJsonBody, type BodyResult } from './body.js';
import type { ChallengeVerifier } from './challenge.js';
import type { SubmissionChecks } from './check-pool.js';
import { issueFormToken, verifyFormToken } from './form-token.js';
import { hitRateLimit, rateLimitAddress, type RateLimits } from './rate-limit.js';
import { CheckQueue, DEFAULT_CHECKS_QUEUE, QUEUE_RETRY_AFTER_SECONDS, type CheckPlace } from './check-queue.js';
import { defaultSubmissionChecks, submitLoadout, type SubmitContext } from './service.js';
import { CLIENT_CLOSED_REQUEST } from '../server/observe.js';
import { mountPageRoutes } from './page-routes.js';
import { statusDocument } from './status.js';
import { validateSubmission } from './validate.js';
import { describeChecksTimeout } from '../verify/budget.js';

/** Dependencies of the submissions API. */
export interface SubmissionsOptions {
  /** `SUBMISSIONS_OPEN`; submissions are closed regardless when `stores` is undefined. */
  open: boolean;
  /** The database's stores; undefined when no database is configured. */
  stores: Stores | undefined;
  /** `{base_url}`, no trailing slash, for `status_url`. */
  baseUrl: string;
  /** HMAC key of form tokens (`FORM_TOKEN_SECRET`). */
  formTokenSecret: string;
  /** The bot challenge of the browser path; undefined closes that path (agents still submit). */
  challenge: ChallengeVerifier | undefined;
  /** True when the published catalogue has a loadout with this id. */
  catalogueHas(loadoutId: string): Promise<boolean>;
  limits: RateLimits;
  /** Take the client address from the last `X-Forwarded-For` entry (behind one trusted proxy). */
  trustProxy?: boolean;
  /** The clock; default the system clock. */
  now?: () => Date;
  /** Where the checks of a submission run; default the process's pool (service.ts `defaultSubmissionChecks`). */
  checks?: SubmissionChecks;
  /**
   * Submissions that may wait for the checks besides those being checked (`LOADOUT_CHECKS_QUEUE`,
   * check-queue.ts); default {@link DEFAULT_CHECKS_QUEUE}. Past it a submission is answered 503
   * `checks_busy` with `Retry-After`.
   */
  checksQueue?: number;
  /** The queue itself, instead of one made from `checks.threads` and `checksQueue` (tests watch it). */
  queue?: CheckQueue;
  /**
   * Milliseconds a submission's body may take to arrive once its headers have
   * (`LOADOUT_BODY_TIMEOUT_SECONDS`); default {@link DEFAULT_BODY_TIMEOUT_SECONDS}. Past it the
   * answer is 408 `request_timeout` and the connection closes.
   */
  bodyTimeoutMs?: number;
  /**
   * Submission bodies without an API key that one client address may be sending at once
   * (`LOADOUT_BODIES_PER_ADDRESS`, bodies-per-address.ts); default
   * {@link DEFAULT_BODIES_PER_ADDRESS}. Past it such a submission is answered 429 `rate_limited`
   * with `Retry-After`. Bodies with an API key hold places in the checks' queue instead.
   */
  bodiesPerAddress?: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/u;
const PURGE_EVERY_MS = 60_000;

/** Builds the mount function for `createApp({routes})`. */
export function createSubmissionRoutes(options: SubmissionsOptions): (app: Hono) => void {
  const now = options.now ?? ((): Date => new Date());
  let lastPurge = 0;
  const closed = (why: string): Response => problem(503, 'submissions_closed', why, { headers: { 'retry-after': '3600' } });
  const closedReason = (): string | undefined =>
    options.stores === undefined ? 'submissions are closed: no database is configured (DATABASE_URL)' : !options.open ? 'submissions are closed on this server (SUBMISSIONS_OPEN=false)' : undefined;
  const challenge = options.challenge;
  const browserClosed =
    challenge === undefined
      ? 'browser submissions are closed: the server has no bot challenge configured (agents may submit with an API key)'
      : challenge.provider !== 'altcha' && challenge.siteKey === undefined
        ? `browser submissions are closed: CHALLENGE_PROVIDER is ${challenge.provider} but CHALLENGE_SITE_KEY is not set (agents may submit with an API key)`
        : undefined;
  const challengeUrl = `${options.baseUrl}/api/v1/submissions/challenge`;
  const checks = options.checks ?? defaultSubmissionChecks();
  const queue = options.queue ?? new CheckQueue({ running: checks.threads, waiting: options.checksQueue ?? DEFAULT_CHECKS_QUEUE });
  const bodyTimeoutMs = options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_SECONDS * 1000;
  const bodies = new BodiesPerAddress(options.bodiesPerAddress ?? DEFAULT_BODIES_PER_ADDRESS);
  const busy = (): Response =>
    problem(503, 'checks_busy', `the checks of submissions are busy: ${queue.running + queue.waiting} submissions are being checked or waiting (expected fewer at once; LOADOUT_CHECKS_QUEUE on the server); retry after ${QUEUE_RETRY_AFTER_SECONDS} seconds`, {
      headers: { 'retry-after': String(QUEUE_RETRY_AFTER_SECONDS) },
    });

  const limited = async (stores: Stores, bucket: string, limit: number, at: Date): Promise<Response | undefined> => {
    const verdict = await hitRateLimit(stores.rateLimits, bucket, limit, options.limits.windowSeconds, at);
    if (verdict.allowed) return undefined;
    return problem(429, 'rate_limited', `too many requests for ${bucket.split(':')[0] === 'key' ? 'this API key' : 'this client address'} (expected at most ${limit} per ${options.limits.windowSeconds} seconds; retry after ${verdict.retryAfterSeconds} seconds)`, {
      headers: { 'retry-after': String(verdict.retryAfterSeconds) },
    });
  };
  const unauthorized = (detail: string): Response => problem(401, 'unauthorized', detail, { headers: { 'www-authenticate': 'Bearer realm="loadout-submissions"' } });

  return (app) => {
    app.get('/api/v1/submissions/session', async (c) => {
      const reason = closedReason() ?? browserClosed;
      if (reason !== undefined || options.stores === undefined) return closed(reason ?? '');
      const at = now();
      const tooMany = await limited(options.stores, `session:${rateLimitAddress(clientAddress(c, options.trustProxy), options.limits.ipv6Prefix)}`, options.limits.perAddress, at);
      if (tooMany !== undefined) return tooMany;
      if (at.getTime() - lastPurge > PURGE_EVERY_MS) {
        lastPurge = at.getTime();
        await options.stores.nonces.purgeExpired(at.toISOString());
        await options.stores.rateLimits.purgeExpired(at.toISOString());
      }
      const token = issueFormToken(options.formTokenSecret, at);
      const provider = challenge?.provider ?? null;
      return c.json(
        {
          form_token: token.token,
          expires_at: token.expiresAt.toISOString(),
          // What the widget needs: ALTCHA fetches its challenge from us, a vendor's widget needs the site key.
          challenge_provider: provider,
          challenge_site_key: challenge?.siteKey ?? null,
          challenge_url: provider === 'altcha' ? challengeUrl : null,
        },
        200,
        { 'cache-control': 'no-store' },
      );
    });

    app.get('/api/v1/submissions/challenge', async (c) => {
      const reason = closedReason() ?? browserClosed;
      if (reason !== undefined || options.stores === undefined || challenge === undefined) return closed(reason ?? '');
      if (challenge.issue === undefined) return problem(404, 'not_found', `no challenge here: the challenge provider is ${challenge.provider}, whose widget fetches its challenge from the vendor`);
      const at = now();
      const tooMany = await limited(options.stores, `challenge:${rateLimitAddress(clientAddress(c, options.trustProxy), options.limits.ipv6Prefix)}`, options.limits.perAddress, at);
      if (tooMany !== undefined) return tooMany;
      return c.json(await challenge.issue(at), 200, { 'cache-control': 'no-store' });
    });

    app.get('/api/v1/submissions/:id', async (c) => {
      if (options.stores === undefined) return closed('submissions are closed: no database is configured (DATABASE_URL)');
      const id = c.req.param('id');
      if (!UUID.test(id)) return problem(400, 'bad_parameter', `submission id "${id.slice(0, 80)}" is malformed (expected a UUID such as 0190b1d2-7c4e-4f5a-9b1e-2a3c4d5e6f70)`);
      const stored = await options.stores.submissions.get(id);
      if (stored === undefined) return problem(404, 'not_found', `no submission ${id}`);
      return c.json(statusDocument(stored), 200, { 'cache-control': 'no-store' });
    });

    app.post('/api/v1/submissions', async (c) => {
      const reason = closedReason();
      if (reason !== undefined || options.stores === undefined) return closed(reason ?? '');
      const stores = options.stores;
      const at = now();
      const address = clientAddress(c, options.trustProxy);
      const addressKey = rateLimitAddress(address, options.limits.ipv6Prefix);
      const tooMany = await limited(stores, `address:${addressKey}`, options.limits.perAddress, at);
      if (tooMany !== undefined) return tooMany;
      const context: SubmitContext = { submitter: 'form', clientAddress: address, now: at, signal: c.req.raw.signal };
      // A place in the checks' queue bounds the bodies held at once, so only a sender whose
      // credential passed takes one (issue 53, point 7): an agent's API key, in a header, before
      // its body is read; a browser's form token, in the body, once the body is read.
      let place: CheckPlace | undefined;
      try {
        const authorization = c.req.header('authorization');
        if (authorization !== undefined) {
          const refused = await authenticate(stores, authorization, at, context);
          if (refused !== undefined) return refused;
          place = queue.reserve();
          if (place === undefined) return busy();
        }
        // An authenticated body is bounded by its place; one read before any credential passed, by its address.
        const body = await receiveBody(c, place === undefined ? addressKey : undefined);
        // A client gone while its body arrived: the request log records the 499 (server/observe.ts).
        if (!body.ok) return 'gone' in body ? new Response(null, { status: CLIENT_CLOSED_REQUEST }) : body.response;
        if (place === undefined) {
          const fields = typeof body.value === 'object' && body.value !== null && !Array.isArray(body.value) ? (body.value as Record<string, unknown>) : {};
          const refused = await checkFormToken(stores, fields, at, context);
          if (refused !== undefined) return refused;
          place = queue.reserve();
          if (place === undefined) return busy();
          const failed = await passChallenge(stores, fields['challenge_token'], address, at);
          if (failed !== undefined) return failed;
        }
        return await store(c, stores, body.value, context, place);
      } finally {
        place?.release();
      }
    });

    /**
     * The body of a submission, read within its deadline, while it holds one of the body slots
     * of `addressKey` (rate-limit key) when given; 429 when that address is sending
     * `bodiesPerAddress` bodies already.
     */
    const receiveBody = async (c: Context, addressKey: string | undefined): Promise<BodyResult> => {
      const release = addressKey === undefined ? () => undefined : bodies.take(addressKey);
      if (release === undefined) {
        const detail = `this client address is sending ${bodies.cap} submission ${bodies.cap === 1 ? 'body' : 'bodies'} without an API key already (expected at most ${bodies.cap} at once; LOADOUT_BODIES_PER_ADDRESS on the server; an API key is not held back); retry after ${BODIES_RETRY_AFTER_SECONDS} seconds`;
        return { ok: false, response: problem(429, 'rate_limited', detail, { headers: { 'retry-after': String(BODIES_RETRY_AFTER_SECONDS) } }) };
      }
      try {
        return await readJsonBody(c.req.raw, { deadline: { ms: bodyTimeoutMs, setting: 'LOADOUT_BODY_TIMEOUT_SECONDS' } });
      } finally {
        release();
      }
    };

    /** The agent's credential, `Authorization: Bearer <API_KEY>`: a 401 or 429 problem, or undefined (and `context.submitter` set) when it passes. */
    const authenticate = async (stores: Stores, authorization: string, at: Date, context: SubmitContext): Promise<Response | undefined> => {
      const bearer = /^Bearer +(\S+)$/iu.exec(authorization.trim())?.[1];
      if (bearer === undefined) return unauthorized('the Authorization header is not "Bearer <API_KEY>"');
      const auth = await authenticateApiKey(stores.keys, bearer, at);
      if (!auth.ok) return unauthorized(auth.problem === 'revoked' ? 'the API key has been revoked' : auth.problem === 'malformed' ? 'the API key is malformed (expected lk_<prefix>_<secret>)' : 'the API key is not valid');
      const keyLimited = await limited(stores, `key:${auth.key.prefix}`, options.limits.perKey, at);
      if (keyLimited !== undefined) return keyLimited;
      context.submitter = `key:${auth.key.prefix}`;
      return undefined;
    };

    /** The browser's form token, from the body's `fields`: a 401 or 503 problem, or undefined (and `context.nonce` set) when it passes. */
    const checkFormToken = async (stores: Stores, fields: Record<string, unknown>, at: Date, context: SubmitContext): Promise<Response | undefined> => {
      const formToken = fields['form_token'];
      if (formToken === undefined && fields['challenge_token'] === undefined) return unauthorized('no credential (expected Authorization: Bearer <API_KEY>, or form_token and challenge_token in the body)');
      if (typeof formToken !== 'string') return unauthorized('no form_token (expected the string from GET /api/v1/submissions/session)');
      const check = verifyFormToken(options.formTokenSecret, formToken, at);
      if (!check.ok) return unauthorized(check.problem === 'expired' ? 'the form token has expired (expected a token less than 2 hours old: get a new one from GET /api/v1/submissions/session)' : 'the form token is not valid (expected the string from GET /api/v1/submissions/session)');
      if (await stores.nonces.isUsed(check.nonce)) return unauthorized('the form token has been used already (expected a fresh one from GET /api/v1/submissions/session)');
      if (challenge === undefined || browserClosed !== undefined) return closed(browserClosed ?? '');
      context.nonce = { nonce: check.nonce, expiresAt: check.expiresAt.toISOString() };
      return undefined;
    };

    /** The browser's challenge solution: a 401, 403 or 503 problem, or undefined when it passes (and is spent). */
    const passChallenge = async (stores: Stores, challengeToken: unknown, address: string, at: Date): Promise<Response | undefined> => {
      if (challenge === undefined) return closed(browserClosed ?? '');
      if (typeof challengeToken !== 'string' || challengeToken === '') return unauthorized('no challenge_token (expected the token the challenge widget gave)');
      let verdict;
      try {
        verdict = await challenge.verify(challengeToken, address, at);
      } catch (error) {
        // The error names CHALLENGE_VERIFY_URL, which is the operator's business: it goes to
        // the server's log, and the client hears only that the vendor did not answer.
        console.error(error);
        return problem(503, 'challenge_unavailable', 'the bot-challenge vendor did not answer, so the challenge could not be checked (the cause is logged on the server); try again shortly', { headers: { 'retry-after': '30' } });
      }
      if (!verdict.success) return problem(403, 'forbidden', `the challenge was not passed (error codes: ${verdict.errorCodes.join(', ') || 'none'}); solve the challenge again`, { extra: { challenge_errors: verdict.errorCodes } });
      // Single use, whichever the provider: the first request to record the solution wins.
      if (verdict.replay !== undefined && !(await stores.nonces.consume(`challenge:${verdict.replay.key}`, at.toISOString(), verdict.replay.expiresAt.toISOString()))) {
        return problem(403, 'forbidden', 'the challenge solution has been used already (each solution passes once); solve a new challenge', { extra: { challenge_errors: ['already-used'] } });
      }
      return undefined;
    };

    /** The rest of `POST /api/v1/submissions` once the sender passed: validation, the checks (holding `place`) and storage. */
    const store = async (c: Context, stores: Stores, value: unknown, context: SubmitContext, place: CheckPlace): Promise<Response> => {
      const validation = validateSubmission(value);
      if (!validation.ok) {
        const count = validation.errors.length;
        return problemResponse(makeProblem(422, 'invalid_body', `the submission has ${count} invalid field${count === 1 ? '' : 's'}; see errors`, { errors: validation.errors }));
      }
      const outcome = await submitLoadout({ submissions: stores.submissions, catalogueHas: options.catalogueHas, checks, place }, validation.submission, context);
      // Nobody reads this answer (the client left); the request log records it as 499 (server/observe.ts).
      if (outcome.kind === 'abandoned') return new Response(null, { status: CLIENT_CLOSED_REQUEST });
      if (outcome.kind === 'id_taken') return problem(409, 'id_taken', outcome.detail);
      if (outcome.kind === 'checks_timeout') {
        const { check, file, budgetMs } = outcome.timeout;
        return problem(422, 'checks_timeout', `${describeChecksTimeout(outcome.timeout)}, so the submission was not stored (expected content that the checks read within ${budgetMs} ms: make ${file ?? 'the files'} smaller or simpler)`, { extra: { check, file: file ?? null, budget_ms: budgetMs } });
      }
      if (outcome.kind === 'nonce_used') return unauthorized('the form token has been used already (expected a fresh one from GET /api/v1/submissions/session)');
      const statusUrl = `${options.baseUrl}/api/v1/submissions/${outcome.id}`;
      return c.json({ id: outcome.id, status: outcome.status, status_url: statusUrl, loadout_id: outcome.loadoutId, verification: outcome.verification }, 202, { location: statusUrl, 'cache-control': 'no-store' });
    };

    mountPageRoutes(app, { stores: options.stores, baseUrl: options.baseUrl, challenge });

    app.all('/api/v1/submissions', (c) => problem(405, 'method_not_allowed', `${c.req.method} is not allowed on /api/v1/submissions (expected POST)`, { headers: { allow: 'POST' } }));
  };
}

/** The client's address: the socket peer, or behind a trusted proxy the last `X-Forwarded-For` entry. */
function clientAddress(c: Context, trustProxy: boolean | undefined): string {
  if (trustProxy === true) {
    const last = c.req.header('x-forwarded-for')?.split(',').at(-1)?.trim();
    if (last !== undefined && last !== '') return last;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
