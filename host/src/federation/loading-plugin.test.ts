/** @jest-environment node */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { timeoutPlugin } from './timeout-plugin';

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/hang') return; // accepts, never answers
    if (req.url === '/missing') {
      res.statusCode = 404;
      res.end('nope');
      return;
    }
    res.setHeader('Content-Type', 'application/json');
    res.end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const plugin = timeoutPlugin(300);
const fetchHook = (url: string) => (plugin.fetch as (url: string, init: RequestInit) => Promise<Response>)(url, {});

describe('timeout plugin', () => {
  it('passes a good answer through', async () => {
    await expect((await fetchHook(`${base}/ok`)).json()).resolves.toEqual({ ok: true });
  });

  it('fails a manifest that answers an error status, naming it', async () => {
    await expect(fetchHook(`${base}/missing`)).rejects.toThrow(`${base}/missing answered HTTP 404`);
  });

  // Without the timeout this would hang until jest's own test timeout fails it.
  it('gives up on a server that never answers', async () => {
    await expect(fetchHook(`${base}/hang`)).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  it('bounds script loading with the same timeout', () => {
    const createScript = plugin.createScript as (args: { url: string }) => unknown;
    expect(createScript({ url: `${base}/remoteEntry.js` })).toEqual({ timeout: 300 });
  });
});
