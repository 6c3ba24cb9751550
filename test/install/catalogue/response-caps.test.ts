/**
 * Every read of `install`, `update` and `outdated --from URL` is capped (docs/installing.md
 * "Getting the CLI"): a raw file at the `bytes` its versions document declares, a document at a
 * few MB. A real server on 127.0.0.1 streams an endless body; the reader stops at the cap with
 * a `ResponseTooLarge` error that names the address, and the server sees its socket closed.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_MAX_BYTES, openCatalogue } from '../../../src/install/catalogue/catalogue-reader.js';
import { fetchVersion } from '../../../src/install/catalogue/fetch-version.js';
import { ConsumerError } from '../../../src/install/errors.js';

const CONTENT = 'Be brief.\n';
const sha = (text: string): string => createHash('sha256').update(text).digest('hex');
const versions = (id: string) => ({
  id,
  latest: '1.0.0',
  versions: [{ version: '1.0.0', date: null, commit: null, latest: true, changes: [], checks: { pass: 0, fail: 0, skip: 0, not_applicable: 0 }, files: [{ path: 'AGENTS.md', role: 'instructions', agent: null, skill: null, sha256: sha(CONTENT), bytes: Buffer.byteLength(CONTENT), raw_url: '' }] }],
});

/** Writes 64 KB chunks until the client goes away; counts what was sent. */
function streamForever(res: ServerResponse, sent: { bytes: number; closed: boolean }): void {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.on('close', () => (sent.closed = true));
  const pump = (): void => {
    while (!res.destroyed && !res.writableEnded) {
      sent.bytes += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
  };
  pump();
}

let server: Server;
let base = '';
const sent = { bytes: 0, closed: false };
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/api/loadouts/kit/versions.json') return void res.end(JSON.stringify(versions('kit')));
    if (req.url === '/raw/kit/1.0.0/AGENTS.md') return streamForever(res, sent);
    if (req.url === '/api/loadouts/huge/versions.json') return streamForever(res, sent);
    if (req.url === '/api/loadouts/cut/versions.json') {
      // Promises 1,000 bytes, sends 10, then drops the connection.
      res.writeHead(200, { 'content-length': '1000' });
      res.write('{"id":"cut"');
      return void setTimeout(() => res.socket?.destroy(), 20);
    }
    if (req.url === '/api/loadouts/teapot/versions.json') return void res.writeHead(418).end('short and stout');
    if (req.url === '/api/loadouts/declared/versions.json') return void res.writeHead(200, { 'content-length': String(DOCUMENT_MAX_BYTES + 1) }).end();
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function failure(promise: Promise<unknown>): Promise<ConsumerError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(ConsumerError);
  return error as ConsumerError;
}

describe('a catalogue that streams an endless body', () => {
  it('a raw file is cut at the bytes its entry declares, naming the address', async () => {
    sent.bytes = 0;
    sent.closed = false;
    const catalogue = openCatalogue(base);
    const doc = await catalogue.readVersions('kit');
    const error = await failure(fetchVersion(catalogue, doc, '1.0.0'));
    expect(error.name).toBe('ResponseTooLarge');
    expect(error.message).toContain(`${base}/raw/kit/1.0.0/AGENTS.md is larger than ${Buffer.byteLength(CONTENT)} bytes`);
    // The client stopped: the body was never read whole (it has no end), and the socket closed.
    await expect.poll(() => sent.closed).toBe(true);
  });

  it('a versions document is cut at the document cap', async () => {
    sent.bytes = 0;
    const error = await failure(openCatalogue(base).readVersions('huge'));
    expect(error.name).toBe('ResponseTooLarge');
    expect(error.message).toContain(`${base}/api/loadouts/huge/versions.json is larger than ${DOCUMENT_MAX_BYTES} bytes`);
  });

  it('a Content-Length above the cap is refused before the body is read', async () => {
    const error = await failure(openCatalogue(base).readVersions('declared'));
    expect(error.name).toBe('ResponseTooLarge');
  });
});

describe('a catalogue that breaks off or answers oddly', () => {
  it('a body cut short of its Content-Length is CatalogueUnreachable, naming the address', async () => {
    const error = await failure(openCatalogue(base).readVersions('cut'));
    expect(error.name).toBe('CatalogueUnreachable');
    expect(error.message).toContain(`${base}/api/loadouts/cut/versions.json broke off`);
  });

  it('a status other than 200, 3xx or 404 names the status and what was expected', async () => {
    const error = await failure(openCatalogue(base).readVersions('teapot'));
    expect(error.name).toBe('CatalogueUnreachable');
    expect(error.message).toBe(`${base}/api/loadouts/teapot/versions.json answered HTTP 418 (expected 200)`);
  });

  it('a closed port is CatalogueUnreachable, naming the address', async () => {
    const error = await failure(openCatalogue('http://127.0.0.1:9').readVersions('kit'));
    expect(error.name).toBe('CatalogueUnreachable');
    expect(error.message).toContain('cannot reach http://127.0.0.1:9/api/loadouts/kit/versions.json');
  });
});

describe('a built tree on disk', () => {
  it('a raw file larger than its entry declares is refused as not matching its entry, without reading it whole', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loadout-caps-'));
    try {
      mkdirSync(join(dir, 'api/loadouts/kit'), { recursive: true });
      mkdirSync(join(dir, 'raw/kit/1.0.0'), { recursive: true });
      writeFileSync(join(dir, 'api/loadouts/kit/versions.json'), JSON.stringify(versions('kit')));
      writeFileSync(join(dir, 'raw/kit/1.0.0/AGENTS.md'), Buffer.alloc(1024 * 1024, 0x61));
      const catalogue = openCatalogue(dir);
      const error = await failure(fetchVersion(catalogue, await catalogue.readVersions('kit'), '1.0.0'));
      expect(error.name).toBe('HashMismatch');
      expect(error.message).toContain('kit 1.0.0 AGENTS.md');
      expect(error.message).toContain('kit 1.0.0 AGENTS.md does not match its published sha256');
      expect(error.message).toContain(`is ${1024 * 1024} bytes; its entry declares ${Buffer.byteLength(CONTENT)})`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
