/**
 * `loadout dev` answers only its own names (src/dev/allowed-hosts.ts, app.ts): the rule over
 * `Host` values, and a real session on 127.0.0.1 asked with the `Host` a DNS-rebinding page
 * sends (421 problem for every path, the event stream and raw files included) and with its
 * own names (answered).
 */
import { request } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { allowedHostsOf, isAllowedHost } from '../../src/dev/allowed-hosts.js';
import { DEV_PATHS } from '../../src/dev/client-script.js';
import { startDevSession } from '../../src/dev/session.js';
import { writeLoadout } from '../helpers/loadouts.js';
import { commitAll, initRepo, makeTempDir } from '../helpers/temp.js';

describe('allowedHostsOf and isAllowedHost', () => {
  const cases: [bound: string, host: string | undefined, answered: boolean][] = [
    ['127.0.0.1', '127.0.0.1:8787', true],
    ['127.0.0.1', '127.0.0.1', true],
    ['127.0.0.1', 'localhost:8787', true],
    ['127.0.0.1', 'LocalHost:9000', true],
    ['127.0.0.1', 'localhost', true],
    ['127.0.0.1', undefined, true],
    ['127.0.0.1', 'attacker.example', false],
    ['127.0.0.1', 'attacker.example:8787', false],
    ['127.0.0.1', '127.0.0.1.attacker.example:8787', false],
    ['127.0.0.1', 'localhost.attacker.example', false],
    ['127.0.0.1', 'localhost.', false],
    ['127.0.0.1', '[::1]:8787', false],
    ['127.0.0.1', '127.0.0.2:8787', false],
    ['127.0.0.1', '', false],
    ['127.0.0.1', 'localhost:8787:1', false],
    ['::1', '[::1]:8787', true],
    ['::1', 'localhost:8787', true],
    ['::1', '127.0.0.1:8787', false],
    ['[::1]', '[::1]', true],
    ['localhost', '127.0.0.1:8787', true],
    ['localhost', '[::1]:8787', true],
    ['localhost', 'attacker.example:8787', false],
    ['dev.example', 'DEV.example:8787', true],
    ['dev.example', 'localhost:8787', true],
    ['dev.example', '127.0.0.1:8787', false],
    ['dev.example', 'attacker.example', false],
    ['192.168.1.5', '192.168.1.5:8787', true],
    ['192.168.1.5', '192.168.1.6:8787', false],
    ['0.0.0.0', '192.168.1.5:8787', true],
    ['0.0.0.0', '[fe80::1]:8787', true],
    ['0.0.0.0', 'localhost:8787', true],
    ['0.0.0.0', 'my-laptop.lan:8787', false],
    ['0.0.0.0', '999.1.1.1:8787', false],
    ['::', '10.0.0.2', true],
    ['::', 'attacker.example', false],
  ];
  it.each(cases)('bound to %s, Host %s: answered %s', (bound, host, answered) => {
    expect(isAllowedHost(host, allowedHostsOf(bound))).toBe(answered);
  });
});

/** A GET of `path` on `port` of 127.0.0.1 with the `Host` header `host`: status, content type and body. */
function get(port: number, path: string, host: string): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (response) => {
      const type = response.headers['content-type'] ?? '';
      // An event stream that was opened never ends: its first bytes are enough.
      if (type.startsWith('text/event-stream')) {
        response.once('data', (chunk: Buffer) => {
          resolve({ status: response.statusCode ?? 0, type, body: chunk.toString('utf8') });
          req.destroy();
        });
        return;
      }
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, type, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('loadout dev and the Host header', () => {
  it('answers 421 misdirected_request to a Host it is not bound to, on every path, and answers its own names', async () => {
    const root = makeTempDir();
    initRepo(root);
    writeLoadout(root, { id: 'alpha' });
    commitAll(root, 'alpha');
    const session = await startDevSession({ root, out: join(root, 'dist'), baseUrl: 'http://127.0.0.1:8787', host: '127.0.0.1', port: 0 });
    onTestFinished(() => session.close());
    const port = Number(new URL(session.url).port);
    const paths = [DEV_PATHS.report, DEV_PATHS.events, DEV_PATHS.script, '/', '/loadouts/alpha/', '/api/loadouts/alpha.json', '/raw/alpha/1.0.0/AGENTS.md', '/raw/alpha/latest/AGENTS.md'];

    for (const host of ['attacker.example', `attacker.example:${port}`, `[::1]:${port}`, `localhost.attacker.example:${port}`]) {
      for (const path of paths) {
        const answer = await get(port, path, host);
        expect(answer.status, `${host} ${path}`).toBe(421);
        expect(answer.type).toMatch(/^application\/problem\+json/u);
        const problem = JSON.parse(answer.body) as { code: string; status: number; title: string; detail: string };
        expect(problem).toMatchObject({ code: 'misdirected_request', status: 421, title: 'Misdirected request' });
        expect(problem.detail).toContain('127.0.0.1, localhost (any port)');
        // The detail never echoes what the request said.
        expect(problem.detail).not.toContain('attacker');
      }
    }

    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, 'localhost']) {
      expect((await get(port, DEV_PATHS.report, host)).status, host).toBe(200);
      expect((await get(port, '/raw/alpha/1.0.0/AGENTS.md', host)).body).toContain('# Test alpha');
      const events = await get(port, DEV_PATHS.events, host);
      expect(events.type).toMatch(/^text\/event-stream/u);
      expect(events.body).toBe(': loadout dev\n\n');
    }
  }, 120_000);
});
