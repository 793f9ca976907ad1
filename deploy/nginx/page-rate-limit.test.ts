/**
 * @jest-environment node
 *
 * The site as `npm run nginx-config` renders it, on Debian's nginx, with a page rate small
 * enough to reach: page requests beyond a client's rate and burst get a 429 before they reach the
 * host's server, and the built files and the remotes' files are never limited.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, get as httpGet, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from 'testbed/free-port';
import { startSiteFile, type RunningNginx } from 'testbed/nginx';
import { stopProcess } from 'testbed/process';
import { renderNginxConfig } from './render-config';

/** One page at once beyond the first, then one a minute: a test never waits for the next. */
const BURST = 3;
const STATIC_FILE = 'main.0123abcd.js';

let dir: string;
let hostServer: Server;
let nginx: RunningNginx | undefined;
let port: number;
let pagesAnswered = 0;

function status(path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    httpGet({ host: '127.0.0.1', port, path, headers: { accept: 'text/html' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    }).on('error', reject);
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'nginx-rate-'));
  const dist = join(dir, 'dist');
  mkdirSync(dist);
  mkdirSync(join(dir, 'remotes', 'gifts'), { recursive: true });
  writeFileSync(join(dist, STATIC_FILE), 'console.log("host");\n');
  writeFileSync(join(dir, 'remotes', 'gifts', 'remoteEntry.js'), 'console.log("gifts");\n');
  // A stand-in for the host's server that counts the pages it is asked for.
  hostServer = createServer((_req, res) => {
    pagesAnswered += 1;
    res.writeHead(200, { 'Content-Type': 'text/html' }).end('<p>page</p>');
  });
  await new Promise<void>((resolve) => hostServer.listen(0, '127.0.0.1', resolve));
  port = await freePort();
  const statusPort = await freePort();
  nginx = await startSiteFile(
    dir,
    renderNginxConfig({
      GIFT_BOX_API_SERVERS: `127.0.0.1:${await freePort()}`,
      GIFT_BOX_HOST_SERVERS: `127.0.0.1:${(hostServer.address() as AddressInfo).port}`,
      GIFT_BOX_HOST_DIST: dist,
      GIFT_BOX_REMOTES_DIR: join(dir, 'remotes'),
      GIFT_BOX_LISTEN: `127.0.0.1:${port}`,
      GIFT_BOX_STATUS_PORT: String(statusPort),
      GIFT_BOX_ACCESS_LOG: join(dir, 'nginx', 'access.log'),
      GIFT_BOX_PAGE_RATE: '1r/m',
      GIFT_BOX_PAGE_BURST: String(BURST),
    }),
    statusPort,
  );
}, 60_000);

afterAll(async () => {
  if (nginx) await stopProcess(nginx);
  hostServer.closeAllConnections();
  await new Promise((resolve) => hostServer.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('page requests per client address', () => {
  it("are answered 429 beyond the rate and burst, without reaching the host's server; files never are", async () => {
    const pages: number[] = [];
    for (let n = 0; n < 20; n += 1) pages.push(await status(`/About-${n}`));
    // The first and its burst, then (at one a minute) none but one more at most.
    expect(pages.slice(0, BURST + 1)).toEqual(Array(BURST + 1).fill(200));
    expect(pages.filter((code) => code === 429).length).toBeGreaterThanOrEqual(20 - BURST - 2);
    expect(pages.filter((code) => code !== 200 && code !== 429)).toEqual([]);
    expect(pagesAnswered).toBe(pages.filter((code) => code === 200).length);

    for (let n = 0; n < 20; n += 1) {
      expect([await status(`/${STATIC_FILE}`), await status('/remotes/gifts/remoteEntry.js')]).toEqual([200, 200]);
    }
  });
});
