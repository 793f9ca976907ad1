/**
 * @jest-environment node
 *
 * What the host's server sends depends on the address a page was opened at (the development
 * default follows it) and on whether the page is private (robots).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RuntimeConfig } from 'shared/runtime-config';
import { listenRoutes } from 'server/testing/listen-routes';
import { createHostHandler } from './host-handler';
import { defaultOrigins, runtimeConfigFromEnv } from './runtime-config-from-env';

const ID = 'AAAAAAAAAAAAAAAAAAAAAAAA';
const INDEX_HTML =
  '<!doctype html><html><head><title>Gift Box</title></head><body><div id="root"></div></body></html>\n';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

let tmp: string;
const servers: Server[] = [];

/** A GET with the Host header a browser would send for that address (fetch cannot set it). */
function get(server: Server, path: string, host: string): Promise<Answer> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host, accept: 'text/html' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function hostServer(env: Record<string, string>): Promise<Server> {
  const handler = createHostHandler({
    root: join(tmp, 'dist'),
    config: runtimeConfigFromEnv(env),
    followed: defaultOrigins(env),
  });
  const server = await listenRoutes(handler);
  servers.push(server);
  return server;
}

function inlineConfig(body: string): RuntimeConfig {
  return JSON.parse(/<script type="application\/json" id="gift-box-config">(.*?)<\/script>/.exec(body)?.[1] ?? 'null');
}

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'host-addresses-test-'));
  mkdirSync(join(tmp, 'dist'), { recursive: true });
  writeFileSync(join(tmp, 'dist', 'index.html'), INDEX_HTML);
});

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  rmSync(tmp, { recursive: true, force: true });
});

describe('the default configuration follows the address the page was opened at', () => {
  it.each(['127.0.0.1', '127.0.0.2', '192.168.1.20'])('at %s, remotes and API are at that address', async (address) => {
    const server = await hostServer({});
    const config = (await get(server, '/config.json', `${address}:3000`)).body;
    expect(JSON.parse(config)).toMatchObject({
      remotes: {
        gifts: `http://${address}:3001/mf-manifest.json`,
        redeem: `http://${address}:3002/mf-manifest.json`,
        content: `http://${address}:3003/mf-manifest.json`,
      },
      apiBaseUrl: `http://${address}:3004`,
    });
    const page = await get(server, '/about', `${address}:3000`);
    expect(inlineConfig(page.body)).toEqual(JSON.parse(config));
    expect(page.body).toContain(`<link rel="preconnect" href="http://${address}:3003" crossorigin>`);
    expect(page.body).not.toContain('localhost');
    // The page's policy lets it load what it was sent: the remotes and the API at that address.
    const policy = String(page.headers['content-security-policy']);
    expect(policy).toContain(`script-src 'self' http://${address}:3001 http://${address}:3002 http://${address}:3003;`);
    expect(policy).toContain(`connect-src 'self' http://${address}:3004 http://${address}:3001`);
    expect(policy).not.toContain('localhost');
  });

  it('at localhost sends the defaults as they are', async () => {
    const server = await hostServer({ HOST_PORT: '4000', API_PORT: '4004' });
    expect(JSON.parse((await get(server, '/config.json', 'localhost:4000')).body)).toMatchObject({
      remotes: { content: 'http://localhost:3003/mf-manifest.json' },
      apiBaseUrl: 'http://localhost:4004',
    });
  });

  it('follows a name with an underscore, as browsers open it and the remotes allow its origin', async () => {
    const server = await hostServer({ HOST_PORT: '4000', API_PORT: '4004' });
    expect(JSON.parse((await get(server, '/config.json', 'gift_box_host:4000')).body)).toMatchObject({
      remotes: { content: 'http://gift_box_host:3003/mf-manifest.json' },
      apiBaseUrl: 'http://gift_box_host:4004',
    });
  });

  it('sends the URLs an operator set exactly as set, whatever the address', async () => {
    const server = await hostServer({
      API_BASE_URL: 'https://api.example.com',
      REMOTE_CONTENT_URL: 'https://cdn.example.com/content/mf-manifest.json',
    });
    const config = JSON.parse((await get(server, '/config.json', '127.0.0.2:3000')).body) as RuntimeConfig;
    expect(config.apiBaseUrl).toBe('https://api.example.com');
    expect(config.remotes.content).toBe('https://cdn.example.com/content/mf-manifest.json');
    // A remote the operator left at its default still follows the page.
    expect(config.remotes.gifts).toBe('http://127.0.0.2:3001/mf-manifest.json');
  });
});

describe('the allowed remote origins follow the page with the URLs they allow', () => {
  it('sends REMOTE_ORIGINS that name the default remotes at the address the page was opened at', async () => {
    const server = await hostServer({
      REMOTE_ORIGINS: 'http://localhost:3001,http://localhost:3002,http://localhost:3003,https://cdn.example.com',
    });
    const config = JSON.parse((await get(server, '/config.json', '127.0.0.2:3000')).body) as RuntimeConfig;
    expect(config.remoteOrigins).toEqual([
      'http://127.0.0.2:3001',
      'http://127.0.0.2:3002',
      'http://127.0.0.2:3003',
      'https://cdn.example.com',
    ]);
    expect(config.remotes.gifts).toBe('http://127.0.0.2:3001/mf-manifest.json');
  });

  it('sends none when none is set: the browser allows the remote URLs’ own origins', async () => {
    const config = JSON.parse((await get(await hostServer({}), '/config.json', '127.0.0.2:3000')).body) as object;
    expect(config).not.toHaveProperty('remoteOrigins');
  });
});

describe('robots', () => {
  it('serves robots.txt: private pages disallowed, the rest allowed', async () => {
    const answer = await get(await hostServer({}), '/robots.txt', 'localhost:3000');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(answer.body).toBe('User-agent: *\nDisallow: /gifts/\nDisallow: /redeem/\nAllow: /\n');
  });

  it.each([`/gifts/${ID}`, `/redeem/${ID}`, '/gifts/not-an-id'])('marks %s noindex (header and meta)', async (path) => {
    const answer = await get(await hostServer({}), path, 'localhost:3000');
    expect(answer.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(answer.body).toContain('<meta name="robots" content="noindex, nofollow">');
  });

  it.each(['/', '/about', '/game', '/terms', '/privacy-policy'])('leaves %s indexable', async (path) => {
    const answer = await get(await hostServer({}), path, 'localhost:3000');
    expect(answer.status).toBe(200);
    expect(answer.headers['x-robots-tag']).toBeUndefined();
    expect(answer.body).not.toContain('name="robots"');
  });
});
