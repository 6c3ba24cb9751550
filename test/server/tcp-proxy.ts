/**
 * A TCP proxy on 127.0.0.1 in front of a real server (the local PostgreSQL), which a test can
 * cut: `cut()` drops every connection and refuses new ones, as a database that went away would,
 * and `restore()` lets new ones through again, as the database back from a restart.
 */
import { createServer, connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';

/** A running proxy. */
export interface TcpProxy {
  port: number;
  /** Drops every connection; new ones are closed at once. */
  cut(): void;
  /** Lets new connections through again. */
  restore(): void;
}

/** Starts a proxy to `host`:`port`, closed when the test finishes. */
export async function startTcpProxy(host: string, port: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let open = true;
  const server = createServer((client) => {
    if (!open) {
      client.destroy();
      return;
    }
    const upstream = connect(port, host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => {
    for (const s of sockets) s.destroy();
    server.close(() => resolve());
  }));
  return {
    port: (server.address() as AddressInfo).port,
    cut() {
      open = false;
      for (const s of sockets) s.destroy();
    },
    restore() {
      open = true;
    },
  };
}
