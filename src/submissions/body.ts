/**
 * Reading a JSON request body safely (DESIGN.md section 5): 415 unless the media type is
 * `application/json` with no charset or `charset=utf-8` (JSON exchanged between systems is
 * UTF-8, RFC 8259 section 8.1; a body declared in another charset would be decoded wrongly);
 * 413 when the body is over the limit, judged from `Content-Length` and then by counting bytes
 * as they stream in, before anything is parsed; 408 with `Connection: close` when the body has
 * not wholly arrived by its deadline (issue 53, point 7: a body trickled a byte every few
 * seconds held its place until Node's `requestTimeout`, 300 s); 400 when the bytes are not
 * UTF-8 JSON. A client that goes away while its body arrives is no failure of the server: it is
 * a result (`gone`), never a thrown error (which the app would take for a database that does not
 * answer, since Node reports the client's hang-up as ECONNRESET; issue 53, point 11).
 */
import { problem } from '../server/problem.js';

/**
 * Largest accepted body: 512 KiB (524,288 bytes). The files may hold 128 KB of content; JSON
 * escaping can grow text up to six times (`\u0001`), but ordinary text grows little, so 512
 * KiB leaves room for escaping and the other fields while bounding the memory of a request.
 */
export const MAX_BODY_BYTES = 512 * 1024;

/**
 * Default time a submission's body may take to arrive, in seconds (`LOADOUT_BODY_TIMEOUT_SECONDS`):
 * 60, sized to the largest body, {@link MAX_BODY_BYTES}: 512 KiB in 60 s is 8.5 KiB/s (about 70
 * kbit/s), slower than a poor mobile link, while a client that trickles its bytes holds its
 * connection a fifth of Node's `requestTimeout` (300 s).
 */
export const DEFAULT_BODY_TIMEOUT_SECONDS = 60;

/** Parsed JSON, the problem response to send, or `gone`: the client went away, and nobody reads an answer. */
export type BodyResult = { ok: true; value: unknown } | { ok: false; response: Response } | { ok: false; gone: true };

/** Options of {@link readJsonBody}. */
export interface ReadBodyOptions {
  /** Largest accepted body, in bytes; default {@link MAX_BODY_BYTES}. */
  limit?: number;
  /**
   * Milliseconds the whole body may take to arrive, counted from the call (the headers have
   * arrived by then); none by default. Past it the answer is 408 `request_timeout` with
   * `Connection: close`. `setting` names where the deadline is configured, for the problem.
   */
  deadline?: { ms: number; setting: string };
}

/**
 * Reads and parses the JSON body of `request` (see the module comment for the answers). Never
 * throws for what the client did: a body stream that fails after the client went away (the
 * request's signal aborted) gives `gone`.
 * @throws whatever else reading the stream throws (a bug).
 */
export async function readJsonBody(request: Request, options: ReadBodyOptions = {}): Promise<BodyResult> {
  const limit = options.limit ?? MAX_BODY_BYTES;
  const refused = checkJsonMediaType(request.headers.get('content-type'));
  if (refused !== undefined) return { ok: false, response: problem(415, 'unsupported_media_type', refused) };
  const tooLarge = (): BodyResult => ({ ok: false, response: problem(413, 'body_too_large', `the body is over ${limit} bytes (expected at most ${limit} bytes: ${limit / 1024} KiB)`) });
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) return tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body !== null) {
    const reader = request.body.getReader();
    const deadline = options.deadline;
    // Cancelling ends the pending read (done), so that no promise is raced once per chunk.
    let expired = false;
    const timer = deadline === undefined ? undefined : setTimeout(() => {
      expired = true;
      reader.cancel().catch(() => undefined);
    }, deadline.ms);
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (expired && deadline !== undefined) {
          const problemDetail = `the body did not arrive within ${deadline.ms} ms: ${size} bytes came (expected the whole body, at most ${limit} bytes, within ${deadline.ms} ms; ${deadline.setting} on the server)`;
          // Whatever the client still sends is not read: the connection closes after the answer.
          return { ok: false, response: problem(408, 'request_timeout', problemDetail, { headers: { connection: 'close' } }) };
        }
        if (done) break;
        size += value.byteLength;
        if (size > limit) {
          await reader.cancel().catch(() => undefined);
          return tooLarge();
        }
        chunks.push(value);
      }
    } catch (error) {
      // Node fails the body's stream with ECONNRESET ("aborted") when the client hangs up.
      if (request.signal.aborted) return { ok: false, gone: true };
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }
  const bytes = Buffer.concat(chunks);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, response: problem(400, 'malformed_json', 'the body is not valid UTF-8 (expected a UTF-8 JSON document)') };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, response: problem(400, 'malformed_json', `the body is not valid JSON: ${(error as Error).message}`) };
  }
}

const EXPECTED_TYPE = 'expected Content-Type: application/json, optionally with charset=utf-8';

/**
 * Why a `Content-Type` header value does not announce a UTF-8 JSON body, or undefined when it
 * does: `application/json` (any case) with no `charset` parameter or `charset=utf-8` (any case,
 * quoted or not). Other parameters are allowed. `header` null means the header is absent.
 * @returns a problem detail naming the type or charset found and what was expected.
 */
export function checkJsonMediaType(header: string | null): string | undefined {
  if (header === null || header.trim() === '') return `the body is without a Content-Type (${EXPECTED_TYPE})`;
  const parsed = parseMediaType(header);
  if (!parsed.ok) return `the Content-Type ${JSON.stringify(clip(header))} is malformed: ${parsed.reason} (${EXPECTED_TYPE})`;
  if (parsed.type !== 'application/json') return `the body is ${JSON.stringify(clip(parsed.type))} (${EXPECTED_TYPE})`;
  const charset = parsed.parameters.get('charset');
  if (charset !== undefined && charset.toLowerCase() !== 'utf-8') {
    return `the body's charset is ${JSON.stringify(clip(charset))} (expected utf-8 or no charset: JSON is UTF-8, RFC 8259 section 8.1)`;
  }
  return undefined;
}

/** A media type split into its parts: `type/subtype` in lowercase, parameters by lowercase name with their unquoted values. */
export interface MediaType {
  type: string;
  parameters: Map<string, string>;
}

// RFC 9110 section 5.6.2: tchar.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+/u;
// RFC 9110 section 5.6.4: quoted-string, with quoted-pair; obs-text (0x80-0xFF) allowed.
const QUOTED = /^"((?:[\t \x21\x23-\x5B\x5D-\x7E\x80-\xFF]|\\[\t \x21-\x7E\x80-\xFF])*)"/u;
const OWS = /^[ \t]*/u;

/**
 * Parses a media type (RFC 9110 section 8.3.1: `type "/" subtype *( OWS ";" OWS [ parameter ] )`,
 * a parameter being `token "=" ( token / quoted-string )`). A parameter named twice is an error
 * (RFC 6838 section 4.3). Pure.
 * @returns the media type, or `reason`: what is wrong and where.
 */
export function parseMediaType(header: string): ({ ok: true } & MediaType) | { ok: false; reason: string } {
  let rest = header.replace(OWS, '');
  const take = (pattern: RegExp): RegExpExecArray | null => {
    const match = pattern.exec(rest);
    if (match !== null) rest = rest.slice(match[0].length);
    return match;
  };
  const type = take(TOKEN)?.[0];
  if (type === undefined || take(/^\//u) === null) return { ok: false, reason: 'no type/subtype at its start' };
  const subtype = take(TOKEN)?.[0];
  if (subtype === undefined) return { ok: false, reason: `no subtype after "${type}/"` };
  const parameters = new Map<string, string>();
  for (;;) {
    take(OWS);
    if (rest === '') break;
    if (take(/^;/u) === null) return { ok: false, reason: `unexpected ${JSON.stringify(clip(rest, 20))} (expected ";" before a parameter)` };
    take(OWS);
    if (rest === '' || rest.startsWith(';')) continue;
    const name = take(TOKEN)?.[0].toLowerCase();
    if (name === undefined || take(/^=/u) === null) return { ok: false, reason: `a parameter is not name=value at ${rest === '' ? 'the end' : JSON.stringify(clip(rest, 20))}` };
    const quoted = take(QUOTED);
    const value = quoted !== null ? (quoted[1] ?? '').replace(/\\(.)/gu, '$1') : take(TOKEN)?.[0];
    if (value === undefined) return { ok: false, reason: `parameter "${name}" has no valid value (expected a token or a quoted string)` };
    if (parameters.has(name)) return { ok: false, reason: `parameter "${name}" appears twice` };
    parameters.set(name, value);
  }
  return { ok: true, type: `${type}/${subtype}`.toLowerCase(), parameters };
}

/** `text` cut to `max` characters (with an ellipsis), so that a problem never echoes a long header. */
function clip(text: string, max = 100): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
