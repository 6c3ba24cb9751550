/**
 * Reading a JSON request body safely (DESIGN.md section 5): 415 unless the media type is
 * `application/json` (parameters such as `charset=utf-8` allowed); 413 when the body is over
 * the limit, judged from `Content-Length` and then by counting bytes as they stream in,
 * before anything is parsed; 400 when the bytes are not UTF-8 JSON.
 */
import { problem } from '../server/problem.js';

/**
 * Largest accepted body: 512 KiB (524,288 bytes). The files may hold 128 KB of content; JSON
 * escaping can grow text up to six times (`\u0001`), but ordinary text grows little, so 512
 * KiB leaves room for escaping and the other fields while bounding the memory of a request.
 */
export const MAX_BODY_BYTES = 512 * 1024;

/** Parsed JSON, or the problem response to send. */
export type BodyResult = { ok: true; value: unknown } | { ok: false; response: Response };

/** Reads and parses the JSON body of `request`, at most `limit` bytes. */
export async function readJsonBody(request: Request, limit = MAX_BODY_BYTES): Promise<BodyResult> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    return { ok: false, response: problem(415, 'unsupported_media_type', `the body is ${type === '' ? 'without a Content-Type' : `"${type}"`} (expected Content-Type: application/json)`) };
  }
  const tooLarge = (): BodyResult => ({ ok: false, response: problem(413, 'body_too_large', `the body is over ${limit} bytes (expected at most ${limit} bytes: ${limit / 1024} KiB)`) });
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) return tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body !== null) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => undefined);
        return tooLarge();
      }
      chunks.push(value);
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
