/**
 * A stand-in for the bot-challenge vendor (STYLE.md Tests 12): a small local HTTP server that
 * speaks the siteverify protocol (Cloudflare Turnstile "Validate the token"): POST
 * `application/x-www-form-urlencoded` `secret`, `response`, `remoteip`; JSON answer
 * `{success, "error-codes"}`. Tokens starting with `pass` succeed once; a second use is
 * `timeout-or-duplicate`; anything else is `invalid-input-response`.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';

/** A running fake vendor. */
export interface ChallengeVendor {
  /** The siteverify address. */
  url: string;
  /** Every request's form fields, in order. */
  requests: Record<string, string>[];
  /** Content types of the requests, in order. */
  contentTypes: string[];
}

/**
 * Starts the vendor for `secret`; closed when the test finishes. `forgetful`: it passes a
 * `pass…` token every time (a vendor whose replay window has passed, or that does not check).
 */
export async function startChallengeVendor(secret: string, options: { forgetful?: boolean } = {}): Promise<ChallengeVendor> {
  const requests: Record<string, string>[] = [];
  const contentTypes: string[] = [];
  const used = new Set<string>();
  const server = createServer((req, res) => {
    void readAll(req).then((body) => {
      contentTypes.push(req.headers['content-type'] ?? '');
      const fields = Object.fromEntries(new URLSearchParams(body));
      requests.push(fields);
      const answer = (success: boolean, codes: string[]): void => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ success, 'error-codes': codes, ...(success ? { challenge_ts: new Date().toISOString(), hostname: 'localhost' } : {}) }));
      };
      if (req.method !== 'POST' || req.url !== '/siteverify') return answer(false, ['bad-request']);
      if (fields['secret'] === undefined) return answer(false, ['missing-input-secret']);
      if (fields['secret'] !== secret) return answer(false, ['invalid-input-secret']);
      const response = fields['response'];
      if (response === undefined || response === '') return answer(false, ['missing-input-response']);
      if (!response.startsWith('pass')) return answer(false, ['invalid-input-response']);
      if (used.has(response)) return answer(false, ['timeout-or-duplicate']);
      if (options.forgetful !== true) used.add(response);
      return answer(true, []);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/siteverify`, requests, contentTypes };
}

async function readAll(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
