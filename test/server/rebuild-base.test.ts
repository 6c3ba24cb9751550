/**
 * A running `loadout serve` that follows a rebuild for another address (issue 57, point 6:
 * `loadout build --base-url https://catalogue.example.org` beside a running `npm start`) warns as
 * a fresh `serve` does, on standard error and in its log, and its `GET /api/v1` names one base
 * URL, the tree's, where it named the server's for `docs` and `schema` and the tree's for
 * `cli.url` and `plugins`. The document is indented, so that `curl -s …/api/v1 | head` reads it
 * (point 15).
 */
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { serveCommand } from '../../src/cli/commands/serve.js';
import { resolveConfig } from '../../src/cli/config.js';
import { buildCatalogue } from '../../src/tree/build.js';
import { writeLoadout } from '../helpers/loadouts.js';
import { commitAll, initRepo, makeTempDir } from '../helpers/temp.js';

const LOCAL = 'http://localhost:8787';
const OTHER = 'https://catalogue.example.org';

/** Every absolute http(s) address in a JSON value, by JSON pointer. */
function addressesIn(value: unknown, pointer = ''): Map<string, string> {
  const found = new Map<string, string>();
  if (typeof value === 'string') {
    if (/^https?:\/\//u.test(value)) found.set(pointer, value);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) for (const [p, v] of addressesIn(inner, `${pointer}/${key}`)) found.set(p, v);
  }
  return found;
}

/** The origins the description document at `url` names, and its text. */
async function describedOrigins(url: string): Promise<{ origins: Set<string>; pointers: string[]; text: string }> {
  const res = await fetch(`${url}/api/v1`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/u);
  const text = await res.text();
  const addresses = addressesIn(JSON.parse(text));
  return { origins: new Set([...addresses.values()].map((a) => new URL(a).origin)), pointers: [...addresses.keys()].sort(), text };
}

describe('loadout serve and a rebuild for another base URL', () => {
  it('warns when it swaps in a tree built for another address, and names one base in /api/v1', async () => {
    const root = makeTempDir('loadout-rebuild-base-');
    initRepo(root);
    writeLoadout(root, { id: 'alpha', title: 'Alpha' });
    commitAll(root, 'alpha');
    const out = join(root, 'dist');
    await buildCatalogue({ root, out, baseUrl: LOCAL });

    const log: string[] = [];
    const errors: string[] = [];
    let swapped: () => void = () => undefined;
    const swap = new Promise<void>((resolve) => (swapped = resolve));
    const server = await serveCommand(
      {
        out,
        port: 0,
        host: '127.0.0.1',
        config: resolveConfig({ DATABASE_URL: 'none' }),
        env: { LOG_LEVEL: 'info' },
        dataDir: join(root, 'data'),
        logDestination: {
          write(line: string) {
            log.push(line);
            if (line.includes('now serving a new tree')) swapped();
          },
        },
      },
      () => undefined,
      (text) => void errors.push(text),
    );
    onTestFinished(() => server.close());

    // Built for the address it serves: no warning, and one origin, the server's.
    expect(errors).toEqual([]);
    const before = await describedOrigins(server.url);
    expect(before.pointers).toEqual(expect.arrayContaining(['/cli/url', '/docs', '/plugins/marketplace', '/schema']));
    expect([...before.origins]).toEqual([LOCAL]);
    // Indented, one member a line (a single line of 5 KB before).
    expect(before.text.split('\n').length).toBeGreaterThan(40);
    expect(before.text).toMatch(/^\{\n {2}"name": "Loadout Catalogue",\n/u);

    await buildCatalogue({ root, out, baseUrl: OTHER });
    await swap;

    const warning = `was built for ${OTHER}, but this server publishes ${LOCAL}`;
    expect(errors).toEqual([expect.stringMatching(new RegExp(`^loadout: warning: the new tree in ${out.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')} ${warning.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')};`, 'u'))]);
    const warned = log.map((line) => JSON.parse(line) as { level: number; msg: string; built_for?: string; base_url?: string }).filter((entry) => entry.level === 40);
    expect(warned).toEqual([expect.objectContaining({ built_for: OTHER, base_url: LOCAL, msg: expect.stringContaining(warning) as unknown })]);

    const after = await describedOrigins(server.url);
    expect(after.pointers).toEqual(expect.arrayContaining(['/cli/url', '/docs', '/plugins/marketplace', '/schema']));
    expect([...after.origins]).toEqual([OTHER]);
  });
});
