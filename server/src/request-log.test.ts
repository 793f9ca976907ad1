/** @jest-environment node */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LogLevel } from './env';
import { createLogger } from './log';
import { maskUrl, peerAddressHash } from './request-log';
import { listenPart, type PartServer } from './part-server';

const GIFT_ID = 'AbCdEfGhIjKlMnOpQrStUvWx';
let tmp: string;
const opened: PartServer[] = [];

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'request-log-test-'));
  writeFileSync(join(tmp, 'latest.json'), '{"id":"b1","timestamp":1}\n');
});

afterAll(async () => {
  await Promise.all(opened.map((serving) => serving.shutdown()));
  rmSync(tmp, { recursive: true, force: true });
});

/** A server on loopback answering every page 200, logging at `level` into the lines it returns. */
async function serverLogging(
  level: LogLevel,
  clientAddress?: (req: IncomingMessage) => string | undefined,
): Promise<{ url: (path: string) => string; lines: string[]; requestsLogged: (count: number) => Promise<void> }> {
  const lines: string[] = [];
  let written = () => undefined as void;
  const log = createLogger('remote-gifts', level, {
    write: (line: string) => {
      lines.push(line);
      written();
    },
  });
  const serving = await listenPart('remote-gifts', 0, (app) => void app.get('/*', async () => 'a page'), {
    buildFile: join(tmp, 'latest.json'),
    listenHost: '127.0.0.1',
    log,
    clientAddress,
  });
  opened.push(serving);
  const { port } = serving.server.address() as AddressInfo;
  // A request's line is written once its response has closed on the server, just after the client has it.
  const requestsLogged = (count: number) =>
    new Promise<void>((resolve) => {
      written = () => {
        if (lines.filter((line) => line.includes('"msg":"request')).length >= count) resolve();
      };
      written();
    });
  return { url: (path) => `http://127.0.0.1:${port}${path}`, lines, requestsLogged };
}

it('logs one JSON line per request, in the API shape, with the id in the path masked as the API masks it', async () => {
  const server = await serverLogging('info');
  const res = await fetch(server.url(`/gifts/${GIFT_ID}?from=mail`));
  expect(await res.text()).toBe('a page');
  await server.requestsLogged(1);

  const requests = server.lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.req);
  expect(requests).toHaveLength(1);
  const [line] = requests;
  expect(line).toStrictEqual({
    level: 30,
    time: expect.any(Number),
    pid: process.pid,
    hostname: expect.any(String),
    name: 'remote-gifts',
    reqId: expect.stringMatching(/^req-[0-9a-z]+$/),
    req: { method: 'GET', url: '/gifts/AbCd…?…', addressHash: expect.stringMatching(/^[\w-]{32}$/) },
    res: { statusCode: 200 },
    responseTime: expect.any(Number),
    msg: 'request completed',
  });
  const log = server.lines.join('\n');
  expect(log).not.toContain(GIFT_ID);
  expect(log).not.toContain(GIFT_ID.slice(4));
  expect(log).not.toContain('from=mail');
  // The address only as a hash.
  expect(JSON.stringify(line)).not.toContain('127.0.0.1');
});

it('logs health checks at debug only, and nothing per request at LOG_LEVEL=warn', async () => {
  const atInfo = await serverLogging('info');
  await (await fetch(atInfo.url('/healthz'))).arrayBuffer();
  await (await fetch(atInfo.url('/remoteEntry.js'))).arrayBuffer();
  await atInfo.requestsLogged(1);
  const urls = atInfo.lines.flatMap((line) => (JSON.parse(line) as { req?: { url: string } }).req?.url ?? []);
  expect(urls).toEqual(['/remoteEntry.js']);

  const atDebug = await serverLogging('debug');
  await (await fetch(atDebug.url('/healthz'))).arrayBuffer();
  await atDebug.requestsLogged(1);
  expect(atDebug.lines.map((line) => JSON.parse(line) as { level: number; req?: { url: string } })).toContainEqual(
    expect.objectContaining({ level: 20, req: expect.objectContaining({ url: '/healthz' }) }),
  );

  const atWarn = await serverLogging('warn');
  await (await fetch(atWarn.url(`/gifts/${GIFT_ID}`))).arrayBuffer();
  expect(atWarn.lines).toEqual([]);
});

it("hashes the visitor's address the server was given (behind a trusted proxy), not the proxy's", async () => {
  const server = await serverLogging('info', (req) => String(req.headers['x-forwarded-for']));
  await (await fetch(server.url('/about'), { headers: { 'x-forwarded-for': '203.0.113.7' } })).text();
  await server.requestsLogged(1);
  const line = JSON.parse(server.lines.find((entry) => entry.includes('"msg":"request'))!) as {
    req: { addressHash: string };
  };
  expect(line.req.addressHash).toBe(peerAddressHash('203.0.113.7'));
  expect(line.req.addressHash).not.toBe(peerAddressHash('127.0.0.1'));
  expect(server.lines.join('\n')).not.toContain('203.0.113.7');
});

describe('maskUrl, the one masking of the API and of every server', () => {
  it.each([
    ['/api/health', '/api/health'],
    ['/api/game/plays', '/api/game/plays'],
    ['/api/gifts/AbCdEfGhIjKlMnOpQrStUvWx', '/api/gifts/AbCd…'],
    ['/api/redeems/AbCdEfGhIjKlMnOpQrStUvWx/complete', '/api/redeems/AbCd…/complete'],
    ['/api/redeems/abc', '/api/redeems/abc'],
    ['/api/elsewhere/AbCdEfGhIjKlMnOpQrStUvWx/x?y=1', '/api/elsewhere/AbCd…/x?…'],
    ['/gifts/AbCdEfGhIjKlMnOpQrStUvWx', '/gifts/AbCd…'],
    ['/redeem/AbCdEfGhIjKlMnOpQrStUvWx', '/redeem/AbCd…'],
    ['/redeem/mistyped-id', '/redeem/mist…'],
  ])('%s → %s', (url, masked) => {
    expect(maskUrl(url)).toBe(masked);
  });
});
