/**
 * Ports: one the OS picks, the first free one of a range (for callers that keep to a block of
 * their own, as each browser-test worker does), whether something listens on one.
 */
import { connect, createServer } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';

/** A TCP port nobody listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** True when a server could listen on the port of `host` right now. */
export function canListen(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, host, () => probe.close(() => resolve(true)));
  });
}

/**
 * The first port from `start` on, through `last` and then from `first` again, that nothing
 * listens on (on the loopback interface).
 */
export async function freePortIn(first: number, last: number, start = first): Promise<number> {
  const size = last - first + 1;
  for (let tries = 0; tries < size; tries += 1) {
    const port = first + ((start - first + tries) % size);
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port left in ${first}-${last}`);
}

/** True when something accepts connections on the port (ours or anyone's). */
export function isPortInUse(port: number, host = 'localhost'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host });
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Waits until nothing accepts connections on the port; false if something still does after `timeoutMs`. */
export async function waitForPortFree(port: number, timeoutMs: number, pollMs = 100): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (await isPortInUse(port)) {
    if (Date.now() > deadline) return false;
    await delay(pollMs);
  }
  return true;
}
