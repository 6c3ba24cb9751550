import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

/** A free TCP port on 127.0.0.1, for a server that must know its address before it starts (a tree built for the address it is served at). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
