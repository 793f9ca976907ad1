import { createServer, type Server } from 'node:net';
import { canListen, freePort, freePortIn, isPortInUse, waitForPortFree } from './free-port';

function listen(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

test('a port something listens on is in use and cannot be listened on; once closed, it is free', async () => {
  const port = await freePort();
  const server = await listen(port);
  expect(await isPortInUse(port, '127.0.0.1')).toBe(true);
  expect(await canListen(port)).toBe(false);
  const freed = waitForPortFree(port, 5_000, 20);
  await close(server);
  expect(await freed).toBe(true);
  expect(await canListen(port)).toBe(true);
});

test('waitForPortFree gives up after its bound', async () => {
  const server = await listen(0);
  const { port } = server.address() as { port: number };
  try {
    expect(await waitForPortFree(port, 200, 20)).toBe(false);
  } finally {
    await close(server);
  }
});

/** Two neighbouring ports both free right now. */
async function freePair(): Promise<number> {
  for (let tries = 0; tries < 20; tries += 1) {
    const port = await freePort();
    if (port < 65535 && (await canListen(port + 1))) return port;
  }
  throw new Error('no two neighbouring free ports');
}

test('freePortIn skips a taken port, from where it is told to start, wrapping around the range', async () => {
  const first = await freePair();
  const taken = await listen(first + 1);
  try {
    expect(await freePortIn(first, first + 1, first + 1)).toBe(first);
    expect(await freePortIn(first + 1, first + 1).catch((error: Error) => error.message)).toBe(
      `no free port left in ${first + 1}-${first + 1}`,
    );
  } finally {
    await close(taken);
  }
});
