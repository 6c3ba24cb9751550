/**
 * Binding the app to a socket with @hono/node-server. Binds 127.0.0.1 by default (MCP
 * transport security guidance: local servers bind loopback).
 */
import { serve, type ServerType } from '@hono/node-server';
import type { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import { LoadoutError } from '../catalogue/errors.js';

/** A listening server. */
export interface RunningServer {
  /** `http://<host>:<port>` actually bound (port 0 resolves to the chosen port). */
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Starts listening. `port` 0 picks a free port.
 * @throws LoadoutError `config` when the port is taken or the host cannot be bound.
 */
export function listen(app: Hono, options: { port: number; host: string }): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      reject(new LoadoutError('config', `cannot listen on ${options.host}:${options.port}: ${error.code ?? error.message}`, { cause: error, hint: error.code === 'EADDRINUSE' ? 'Pick another port with --port or PORT.' : undefined }));
    };
    const server: ServerType = serve({ fetch: app.fetch, port: options.port, hostname: options.host }, (info: AddressInfo) => {
      server.off('error', onError);
      const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
      resolve({
        url: `http://${host}:${info.port}`,
        port: info.port,
        close: () => new Promise<void>((done) => {
          (server as { closeAllConnections?: () => void }).closeAllConnections?.();
          server.close(() => done());
        }),
      });
    });
    server.on('error', onError);
  });
}
