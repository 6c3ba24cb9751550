/**
 * The media-type parser behind the 415 of `POST /api/v1/submissions` (RFC 9110 section 8.3.1),
 * as a pure function: type and subtype, parameters with token or quoted-string values.
 */
import { describe, expect, it } from 'vitest';
import { checkJsonMediaType, parseMediaType, readJsonBody } from '../../src/submissions/body.js';

describe('parseMediaType', () => {
  it('lowercases the type and parameter names, keeps values, unquotes quoted strings', () => {
    const parsed = parseMediaType('Application/JSON ; Charset="UTF-8"; q="a \\"b\\""');
    expect(parsed).toEqual({ ok: true, type: 'application/json', parameters: new Map([['charset', 'UTF-8'], ['q', 'a "b"']]) });
    expect(parseMediaType('application/json;;  ;')).toEqual({ ok: true, type: 'application/json', parameters: new Map() });
  });

  it('refuses what RFC 9110 does not allow, saying what is wrong', () => {
    const reasons: [string, RegExp][] = [
      ['/json', /no type\/subtype/],
      ['application', /no type\/subtype/],
      ['application/', /no subtype/],
      ['application/json x', /expected ";"/],
      ['application/json; charset', /not name=value at the end/],
      ['application/json; =utf-8', /not name=value/],
      ['application/json; charset=utf 8', /expected ";"/],
      ['application/json; charset="utf-8', /no valid value/],
      ['application/json; a=1; A=2', /"a" appears twice/],
    ];
    for (const [header, reason] of reasons) {
      const parsed = parseMediaType(header);
      expect(parsed.ok, header).toBe(false);
      if (!parsed.ok) expect(parsed.reason, header).toMatch(reason);
    }
  });
});

describe('checkJsonMediaType', () => {
  it('allows application/json with no charset or utf-8 only, and names what it refuses', () => {
    expect(checkJsonMediaType('application/json')).toBeUndefined();
    expect(checkJsonMediaType('application/json; charset="UTF-8"')).toBeUndefined();
    expect(checkJsonMediaType(null)).toMatch(/without a Content-Type/);
    expect(checkJsonMediaType('application/json; charset=latin1')).toMatch(/charset is "latin1" \(expected utf-8 or no charset/);
    expect(checkJsonMediaType('text/json')).toMatch(/the body is "text\/json"/);
    expect(checkJsonMediaType(`application/json; charset=${'x'.repeat(5000)}`)?.length).toBeLessThan(400);
  });
});

describe('readJsonBody', () => {
  const json = { 'content-type': 'application/json' };
  /** A request whose body sends `first` and then nothing more; `fail` makes its stream fail, as Node's does when the client hangs up. */
  const stalled = (first: string, signal?: AbortSignal): { request: Request; fail: (error: Error) => void } => {
    let fail!: (error: Error) => void;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(first));
        fail = (error) => controller.error(error);
      },
    });
    return { request: new Request('http://127.0.0.1/api/v1/submissions', { method: 'POST', headers: json, body, duplex: 'half', ...(signal === undefined ? {} : { signal }) } as RequestInit), fail };
  };

  it('answers 408 request_timeout with Connection: close when the body has not arrived by its deadline, naming the setting', async () => {
    const { request } = stalled('{"name": "slo');
    const result = await readJsonBody(request, { deadline: { ms: 30, setting: 'LOADOUT_BODY_TIMEOUT_SECONDS' } });
    if (result.ok || !('response' in result)) throw new Error(`expected a problem, got ${JSON.stringify(result)}`);
    expect(result.response.status).toBe(408);
    expect(result.response.headers.get('connection')).toBe('close');
    const problem = (await result.response.json()) as Record<string, unknown>;
    expect(problem).toMatchObject({ code: 'request_timeout', status: 408, title: 'Request timeout', type: '/docs/#problem-request_timeout' });
    expect(problem['detail']).toMatch(/within 30 ms: 13 bytes came .*at most 524288 bytes.*LOADOUT_BODY_TIMEOUT_SECONDS/u);
  });

  it('reads a body that arrives before its deadline', async () => {
    const request = new Request('http://127.0.0.1/', { method: 'POST', headers: json, body: '{"a": 1}' });
    expect(await readJsonBody(request, { deadline: { ms: 60_000, setting: 'X' } })).toEqual({ ok: true, value: { a: 1 } });
  });

  it('says the client went away when the body fails after the request was aborted, and throws otherwise', async () => {
    const gone = new AbortController();
    const left = stalled('{"na', gone.signal);
    const reading = readJsonBody(left.request);
    gone.abort();
    left.fail(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
    const result = await reading;
    expect(result).toEqual({ ok: false, gone: true });

    const broken = stalled('{"na');
    const failing = readJsonBody(broken.request);
    broken.fail(new Error('a bug in the stream'));
    await expect(failing).rejects.toThrow(/a bug in the stream/u);
  });
});
