/**
 * @jest-environment node
 *
 * A file a deploy replaces while the static server is answering it: the deploy writes the new
 * file beside the old one and renames it over, right after the server has looked the path up.
 * The answer is one file whole (the old one), its Content-Length that file's; the next request
 * gets the new one.
 */
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type * as FsPromises from 'node:fs/promises';
import { request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from './log';
import { listenPart } from './part-server';
import { staticFiles } from './static-part';

/** Paths to replace (with the bytes given) as soon as the server has first looked them up. */
const replaceOnLookup = new Map<string, string>();

function replaceIfAsked(path: unknown): void {
  const content = typeof path === 'string' ? replaceOnLookup.get(path) : undefined;
  if (content === undefined) return;
  replaceOnLookup.delete(path as string);
  writeFileSync(`${path as string}.new`, content);
  renameSync(`${path as string}.new`, path as string);
}

// The server looks a file up with stat or open: either one, once it has answered, is followed
// by the deploy's rename.
jest.mock('node:fs/promises', () => {
  const actual = jest.requireActual<typeof FsPromises>('node:fs/promises');
  return {
    ...actual,
    stat: async (...args: Parameters<typeof actual.stat>) => {
      const stats = await actual.stat(...args);
      replaceIfAsked(args[0]);
      return stats;
    },
    open: async (...args: Parameters<typeof actual.open>) => {
      const file = await actual.open(...args);
      replaceIfAsked(args[0]);
      return file;
    },
  };
});

const OLD = `${JSON.stringify({ id: '9a985ba4-e671-4f85-bdee-28f56fed6662', timestamp: 1 })}\n`;
const NEW = `${JSON.stringify({ id: 'e2e-short', timestamp: 2 })}\n`;

let root: string;
let server: Server;

/** A GET on its own connection; rejects when the answer ends before its Content-Length. */
function get(path: string): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'file-reply-replaced-'));
  const options = {
    buildFile: join(root, 'latest.json'),
    listenHost: '127.0.0.1',
    log: createLogger('test', 'silent'),
  };
  server = (await listenPart('test', 0, staticFiles({ root }), options)).server;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

it('answers a file renamed over while it is answered with the old file whole, and the new one next', async () => {
  const latest = join(root, 'latest.json');
  writeFileSync(latest, OLD);
  replaceOnLookup.set(latest, NEW);

  const during = await get('/latest.json');
  expect(replaceOnLookup.has(latest)).toBe(false);
  expect(during.status).toBe(200);
  expect(during.body).toBe(OLD);
  expect(during.headers['content-length']).toBe(String(Buffer.byteLength(OLD)));

  const after = await get('/latest.json');
  expect(after.body).toBe(NEW);
  expect(after.headers['content-length']).toBe(String(Buffer.byteLength(NEW)));
});
