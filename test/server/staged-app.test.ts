import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createStagedApp } from '../../src/server/staged-app.js';

/** An app that answers every path with its name. */
const named = (name: string): Hono => {
  const app = new Hono();
  app.all('*', (c) => c.text(name));
  return app;
};

/** A promise with its resolve and reject. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('a staged app', () => {
  it('answers the early paths at once and holds the others until the whole app has loaded', async () => {
    const whole = deferred<Hono>();
    const app = createStagedApp({ paths: ['/api/v1/search'], app: named('early') }, whole.promise);
    expect(await (await app.request('/api/v1/search?q=x')).text()).toBe('early');
    let answered = false;
    const waiting = Promise.resolve(app.request('/mcp', { method: 'POST' })).then(async (r) => {
      answered = true;
      return r.text();
    });
    // The early app never answers another path, even one that starts alike.
    const alike = Promise.resolve(app.request('/api/v1/search/x')).then((r) => r.text());
    await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBe(false);
    whole.resolve(named('whole'));
    expect(await waiting).toBe('whole');
    expect(await alike).toBe('whole');
    // Once loaded, the whole app answers everything, the early paths too.
    expect(await (await app.request('/api/v1/search?q=x')).text()).toBe('whole');
  });

  it('answers waiting requests with a problem when the whole app fails to load', async () => {
    const whole = deferred<Hono>();
    const app = createStagedApp({ paths: ['/api/v1/search'], app: named('early') }, whole.promise);
    const waiting = app.request('/api/v1');
    whole.reject(new Error('the database is unreachable'));
    const response = await waiting;
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/u);
    expect(((await response.json()) as { code: string }).code).toBe('internal_error');
    expect((await app.request('/docs/')).status).toBe(500);
  });
});
