/**
 * What a real listening server answers to requests Node's HTTP parser refuses before the app
 * sees them: a complete HTTP/1.1 response with an `application/problem+json` body and
 * `Connection: close` (SECURITY.md: every error is `application/problem+json`, those refused
 * before the app included). Spoken over a raw TCP socket, since no HTTP client sends such
 * requests.
 */
import fc from 'fast-check';
import { Hono } from 'hono';
import { connect } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { listen, type ServerLimits } from '../../src/server/listen.js';

/** An app with one route, listening on 127.0.0.1; closed when the test finishes. */
async function startServer(limits?: ServerLimits): Promise<{ port: number }> {
  const app = new Hono();
  app.get('/api/v1/search', (c) => c.json({ query: c.req.query('q') ?? '' }));
  // A response that takes a while to start: whatever the parser reports meanwhile comes after it.
  app.get('/slow', async (c) => {
    await new Promise((resolve) => setTimeout(resolve, 100));
    return c.json({ slow: true });
  });
  // A response that starts after `turns` turns of the event loop (no timer): pipelined requests
  // whose answers come at different times.
  app.get('/turns', async (c) => {
    const turns = Number(c.req.query('turns') ?? 0);
    for (let turn = 0; turn < turns; turn++) await new Promise((resolve) => setImmediate(resolve));
    return c.json({ n: Number(c.req.query('n')) });
  });
  // A response that starts at once and never ends, to have one in flight.
  app.post('/stream', () => new Response(new ReadableStream({ start: (controller) => controller.enqueue(new TextEncoder().encode('partial')) })));
  const server = await listen(app, { port: 0, host: '127.0.0.1', ...(limits === undefined ? {} : { limits }) });
  onTestFinished(() => server.close());
  return { port: server.port };
}

/** A parsed HTTP/1.1 response. */
interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends `bytes` over a fresh connection (optionally ending the sending side) and resolves with
 * everything the server sent until it closed its side.
 */
function exchange(port: number, bytes: string, options: { end?: boolean } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      socket.end();
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    socket.write(bytes);
    if (options.end === true) socket.end();
  });
}

/** Splits `text` into its HTTP/1.1 responses (by Content-Length). */
function parseResponses(text: string): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = text;
  while (rest !== '') {
    const split = rest.indexOf('\r\n\r\n');
    expect(split, `no end of headers in ${JSON.stringify(rest.slice(0, 200))}`).toBeGreaterThan(0);
    const [statusLine = '', ...lines] = rest.slice(0, split).split('\r\n');
    expect(statusLine).toMatch(/^HTTP\/1\.1 \d{3} [A-Za-z ]+$/);
    const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
    const length = Number(headers['content-length']);
    expect(Number.isInteger(length), `Content-Length of ${statusLine}`).toBe(true);
    const bodyBytes = Buffer.from(rest.slice(split + 4), 'utf8');
    const body = bodyBytes.subarray(0, length).toString('utf8');
    responses.push({ status: Number(statusLine.split(' ')[1]), headers, body });
    rest = bodyBytes.subarray(length).toString('utf8');
  }
  return responses;
}

/** Asserts that `response` is a problem with `status` and `code`, sent with Connection: close. */
function expectProblem(response: RawResponse | undefined, status: number, code: string): Record<string, unknown> {
  expect(response?.headers['connection']).toBe('close');
  return expectProblemBody(response, status, code);
}

/** Asserts that `response` carries a problem body with `status` and `code`; returns the body. */
function expectProblemBody(response: RawResponse | undefined, status: number, code: string): Record<string, unknown> {
  expect(response?.status).toBe(status);
  expect(response?.headers['content-type']).toBe('application/problem+json; charset=utf-8');
  const problem = JSON.parse(response?.body ?? '') as Record<string, unknown>;
  expect(problem).toMatchObject({ type: `/docs/#problem-${code}`, status, code, title: expect.any(String) as unknown, detail: expect.any(String) as unknown });
  return problem;
}

describe('listen: errors Node reports before the app', () => {
  it('answers a 100 KB search URL with a 431 problem, without echoing the URL', async () => {
    const { port } = await startServer();
    const query = 'a'.repeat(100 * 1024);
    const text = await exchange(port, `GET /api/v1/search?q=${query} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    const [response, ...more] = parseResponses(text);
    expect(more).toEqual([]);
    const problem = expectProblem(response, 431, 'headers_too_large');
    expect(problem['detail']).toMatch(/over 16384 bytes/);
    expect(text).not.toContain('aaaaaaaaaa');
  });

  it('answers headers over a configured maxHeaderSize with 431, naming the limit', async () => {
    const { port } = await startServer({ maxHeaderSize: 2048 });
    const text = await exchange(port, `GET /api/v1/search HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ${'p'.repeat(4096)}\r\n\r\n`);
    const problem = expectProblem(parseResponses(text)[0], 431, 'headers_too_large');
    expect(problem['detail']).toMatch(/over 2048 bytes/);
  });

  it('answers malformed requests with a 400 problem naming the parser error', async () => {
    const { port } = await startServer();
    const malformed: [string, RegExp][] = [
      ['NOT HTTP AT ALL\r\n\r\n', /HPE_/],
      ['GET /api/v1/search HTTP/1.1\r\nHost: 127.0.0.1\r\nA header without a colon\r\n\r\n', /HPE_INVALID_HEADER_TOKEN/],
      ['GET /api/v1/search HTTP/9.9\r\nHost: 127.0.0.1\r\n\r\n', /HPE_/],
      ['POST /api/v1/search HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab', /HPE_/],
      ['POST /api/v1/search HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', /HPE_INVALID_CHUNK_SIZE/],
    ];
    for (const [request, reason] of malformed) {
      const [response, ...more] = parseResponses(await exchange(port, request));
      expect(more, request).toEqual([]);
      const problem = expectProblem(response, 400, 'bad_request');
      expect(problem['detail'], request).toMatch(reason);
    }
  });

  it('answers a request cut off by the client with a 400 problem', async () => {
    const { port } = await startServer();
    const text = await exchange(port, 'GET /api/v1/search HTTP/1.1\r\nHost: 127.0', { end: true });
    expectProblem(parseResponses(text)[0], 400, 'bad_request');
  });

  it('answers chunk extensions over Node\'s limit with a 413 problem', async () => {
    const { port } = await startServer();
    const text = await exchange(port, `POST /api/v1/search HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n1;ext=${'e'.repeat(40 * 1024)}\r\na\r\n0\r\n\r\n`);
    expectProblem(parseResponses(text)[0], 413, 'body_too_large');
  });

  it('answers headers that do not arrive in time with a 408 problem', async () => {
    const { port } = await startServer({ headersTimeout: 300, requestTimeout: 300, connectionsCheckingInterval: 50 });
    // The headers never end: Node's timeout check ends the wait, not a sleep in the test.
    const text = await exchange(port, 'GET /api/v1/search HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const problem = expectProblem(parseResponses(text)[0], 408, 'request_timeout');
    expect(problem['detail']).toMatch(/within 300 ms/);
  });

  it('answers a bad request after a good one on a kept-alive connection, after the first response', async () => {
    const { port } = await startServer();
    const text = await exchange(port, 'GET /api/v1/search?q=ok HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nBROKEN\r\n\r\n');
    const [first, second, ...more] = parseResponses(text);
    expect(first?.status).toBe(200);
    expect(JSON.parse(first?.body ?? '')).toEqual({ query: 'ok' });
    expectProblem(second, 400, 'bad_request');
    expect(more).toEqual([]);
  });

  it('answers a bad request after a good one whose response has not started yet, in the order of the requests', async () => {
    const { port } = await startServer();
    const text = await exchange(port, 'GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nBROKEN\r\n\r\n');
    const [first, second, ...more] = parseResponses(text);
    expect(first?.status).toBe(200);
    expect(JSON.parse(first?.body ?? '')).toEqual({ slow: true });
    expectProblem(second, 400, 'bad_request');
    expect(more).toEqual([]);
  });

  it('answers every one of several pipelined requests before a malformed one, in order, then the 400 (a property over counts and delays)', async () => {
    const { port } = await startServer();
    // Each request answers after 0 to 4 turns of the event loop; the parser reports the malformed
    // one while the first responses are waiting, being written, or done (Node 20, 22 and 24 differ).
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 8 }), async (delays) => {
        const requests = delays.map((turns, n) => `GET /turns?n=${n}&turns=${turns} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`).join('');
        const responses = parseResponses(await exchange(port, `${requests}BROKEN\r\n\r\n`));
        expect(responses.map((r) => r.status), `delays ${JSON.stringify(delays)}`).toEqual([...delays.map(() => 200), 400]);
        expect(responses.slice(0, -1).map((r) => (JSON.parse(r.body) as { n: number }).n)).toEqual(delays.map((_, n) => n));
        expectProblem(responses.at(-1), 400, 'bad_request');
      }),
      { numRuns: 40 },
    );
  });

  it('answers three GETs sent in one packet with a malformed request, then the 400', async () => {
    const { port } = await startServer();
    const get = (q: string): string => `GET /api/v1/search?q=${q} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;
    const responses = parseResponses(await exchange(port, `${get('one')}${get('two')}${get('three')}BROKEN\r\n\r\n`));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 400]);
    expect(responses.slice(0, 3).map((r) => JSON.parse(r.body) as unknown)).toEqual([{ query: 'one' }, { query: 'two' }, { query: 'three' }]);
  });

  it('writes nothing into a response already under way: the connection is closed instead', async () => {
    const { port } = await startServer();
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let received = '';
      socket.on('data', (chunk: Buffer) => {
        const first = received === '';
        received += chunk.toString('utf8');
        // Once the response has begun, the request body turns out malformed.
        if (first && received.includes('partial')) socket.write('zz\r\n');
      });
      socket.on('error', reject);
      socket.on('close', () => resolve(received));
      socket.write('POST /stream HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n');
    });
    expect(text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(text).toContain('partial');
    expect(text).not.toContain('problem+json');
  });

  it('still answers well-formed requests normally', async () => {
    const { port } = await startServer();
    const [response] = parseResponses(await exchange(port, 'GET /api/v1/search?q=rust HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'));
    expect(response?.status).toBe(200);
    expect(JSON.parse(response?.body ?? '')).toEqual({ query: 'rust' });
  });
});

describe('listen: requests @hono/node-server or Node refuse after parsing', () => {
  // Each request line and Host that @hono/node-server 2.x cannot make a URL of (src/url.ts,
  // src/request.ts: backslash in the path, not origin-form, bad absolute URL, bad Host), and
  // the Host rules of RFC 9112 section 3.2 that Node itself would answer with a bare 400.
  const refused: [string, string, RegExp][] = [
    ['backslash path', 'GET /raw/a\\..\\b HTTP/1.1\r\nHost: 127.0.0.1', /backslash in its path/],
    ['Host with a space', 'GET / HTTP/1.1\r\nHost: a b', /do not form a URL/],
    ['Host with userinfo', 'GET / HTTP/1.1\r\nHost: a@b', /Host header is not valid/],
    ['Host with a path', 'GET / HTTP/1.1\r\nHost: a/b', /Host header is not valid/],
    ['Host with a port over 65535', 'GET / HTTP/1.1\r\nHost: x:99999', /do not form a URL/],
    ['Host with an open IPv6 bracket', 'GET / HTTP/1.1\r\nHost: [::1', /do not form a URL/],
    ['asterisk-form', 'OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1', /do not form a URL/],
    ['ftp absolute-form', 'GET ftp://x/ HTTP/1.1\r\nHost: 127.0.0.1', /do not form a URL/],
    ['bad http absolute-form', 'GET http://[::1/ HTTP/1.1\r\nHost: 127.0.0.1', /not a valid absolute URL/],
    ['backslash in an absolute URL', 'GET http://x/a\\b HTTP/1.1\r\nHost: 127.0.0.1', /not a valid absolute URL/],
    ['no Host in HTTP/1.1', 'GET / HTTP/1.1', /no Host header/],
    ['two Host lines', 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example', /2 Host header lines/],
  ];
  for (const [name, head, detail] of refused) {
    it(`answers ${name} with a 400 problem`, async () => {
      const { port } = await startServer();
      const text = await exchange(port, `${head}\r\nConnection: close\r\n\r\n`);
      const [response, ...more] = parseResponses(text);
      expect(more).toEqual([]);
      const problem = expectProblemBody(response, 400, 'bad_request');
      expect(problem['detail']).toMatch(detail);
    });
  }

  it('keeps answering well-formed Host forms: a port, an empty Host, HTTP/1.0 without Host, absolute http URL', async () => {
    const { port } = await startServer();
    for (const head of ['GET /api/v1/search?q=a HTTP/1.1\r\nHost: localhost:80', 'GET /api/v1/search?q=a HTTP/1.1\r\nHost:', 'GET /api/v1/search?q=a HTTP/1.0', 'GET http://127.0.0.1/api/v1/search?q=a HTTP/1.1\r\nHost: 127.0.0.1']) {
      const [response] = parseResponses(await exchange(port, `${head}\r\nConnection: close\r\n\r\n`));
      expect(response?.status, head).toBe(200);
    }
  });
});
