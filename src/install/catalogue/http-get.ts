/**
 * One GET of a catalogue address over `node:http`/`node:https`, with the body streamed and
 * capped. The consumer CLI uses this rather than the global `fetch`: on Node 20 and 22 `fetch`
 * loads and compiles Node's bundled undici on its first call, which a short-lived command pays
 * in full (DESIGN.md section 7: a warm install under 300 ms; `bench/consumer.ts` measures it),
 * while `node:http` is part of Node's core. Redirects are not followed: the caller decides
 * whether a `Location` stays inside the catalogue.
 */
import { get as getHttp, type IncomingMessage } from 'node:http';
import { get as getHttps } from 'node:https';
import { ConsumerError } from '../errors.js';

/** What one GET answered. */
export interface HttpAnswer {
  /** The HTTP status code. */
  readonly status: number;
  /** The `Location` header, for a redirect; undefined when absent. */
  readonly location: string | undefined;
  /** The body for a 200 answer, at most `cap` bytes; empty for any other status (not read). */
  readonly body: Uint8Array;
}

/** Options of {@link httpGet}. */
export interface HttpGetOptions {
  /** The most bytes of body accepted (a 200 answer's). */
  readonly cap: number;
  /** Milliseconds from the request to the body's end before the read is given up. */
  readonly timeoutMs: number;
}

/** The error of a body over `cap` bytes, naming where it came from. */
export const tooLarge = (where: string, cap: number): ConsumerError =>
  new ConsumerError('ResponseTooLarge', `${where} is larger than ${cap} bytes (expected at most what the catalogue declares for it); stopped reading`);

/**
 * True when a TLS handshake failed because the other end does not speak TLS: OpenSSL's
 * `wrong version number` (a plain-HTTP answer read as a TLS record), which Node gives as
 * `EPROTO` with OpenSSL's text as the message.
 */
function isNotTls(cause: Error & { code?: unknown }): boolean {
  return cause.code === 'EPROTO' || /wrong version number|packet length too long|unknown protocol/u.test(cause.message);
}

/**
 * GETs `url` (http: or https:). A 200 answer's body is read up to `cap` bytes; the read stops
 * and the connection is closed as soon as more arrives or a `Content-Length` over the cap is
 * declared. Any other status is answered without its body.
 * @throws ConsumerError `CatalogueUnreachable` (no connection, a timeout, a body broken off),
 *   `ResponseTooLarge` naming `url`
 */
export function httpGet(url: URL, options: HttpGetOptions): Promise<HttpAnswer> {
  const get = url.protocol === 'https:' ? getHttps : getHttp;
  return new Promise<HttpAnswer>((resolve, reject) => {
    const signal = AbortSignal.timeout(options.timeoutMs);
    const unreachable = (cause: Error): ConsumerError =>
      signal.aborted
        ? new ConsumerError('CatalogueUnreachable', `${url.href} did not answer within ${options.timeoutMs} ms`, { cause })
        : url.protocol === 'https:' && isNotTls(cause)
          ? new ConsumerError('CatalogueUnreachable', `cannot reach ${url.href}: the server at ${url.host} does not answer in HTTPS (TLS) on that port`, { cause, hint: 'If it serves plain HTTP (as `loadout serve` does), write --from with http:// instead of https://.' })
          : new ConsumerError('CatalogueUnreachable', `cannot reach ${url.href}: ${cause.message}`, { cause });
    const request = get(url, { signal }, (response: IncomingMessage) => {
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (status !== 200) {
        response.resume();
        resolve({ status, location, body: new Uint8Array() });
        return;
      }
      const declared = Number(response.headers['content-length'] ?? Number.NaN);
      if (declared > options.cap) {
        response.destroy();
        reject(tooLarge(url.href, options.cap));
        return;
      }
      const chunks: Buffer[] = [];
      let length = 0;
      response.on('data', (chunk: Buffer) => {
        length += chunk.length;
        if (length > options.cap) {
          response.destroy();
          reject(tooLarge(url.href, options.cap));
          return;
        }
        chunks.push(chunk);
      });
      response.on('end', () => resolve({ status, location, body: Buffer.concat(chunks, length) }));
      response.on('error', (cause) => reject(new ConsumerError('CatalogueUnreachable', `${url.href} broke off: ${cause.message}`, { cause })));
      response.on('close', () => {
        if (!response.complete) reject(new ConsumerError('CatalogueUnreachable', `${url.href} broke off before the end of its body`));
      });
    });
    request.on('error', (cause) => reject(unreachable(cause)));
  });
}
