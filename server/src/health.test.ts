/** @jest-environment node */
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import Fastify, { type FastifyInstance } from 'fastify';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isHealthUrl, registerHealth } from './health';

const BUILD_ID = 'c35f29a5-a23f-4db1-8c22-216bebc6615a';

let tmp: string;
let buildFile: string;
let stopping = false;
let starting = false;
let app: FastifyInstance;
let base: string;

function writeBuild(id: string): void {
  writeFileSync(buildFile, `${JSON.stringify({ id, timestamp: 1700000000000 })}\n`);
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'health-test-'));
  buildFile = join(tmp, 'latest.json');
  app = Fastify();
  registerHealth(app, { buildFile, isStopping: () => stopping, isStarting: () => starting });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});

beforeEach(() => {
  stopping = false;
  starting = false;
  writeBuild(BUILD_ID);
});

afterAll(async () => {
  await app.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('the health route', () => {
  it('answers 200 with the id of the served build, never cached', async () => {
    const res = await fetch(`${base}/healthz`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toStrictEqual({ status: 'ok', build: BUILD_ID });
  });

  it('answers 503 "starting" while the server is not ready to serve its pages (the host before it has read its remotes), 200 once it is', async () => {
    starting = true;
    const early = await fetch(`${base}/healthz`);
    expect(early.status).toBe(503);
    expect(await early.json()).toStrictEqual({ status: 'starting' });
    starting = false;
    const ready = await fetch(`${base}/healthz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toStrictEqual({ status: 'ok', build: BUILD_ID });
  });

  it('answers HEAD with the status and length of GET and no body', async () => {
    const get = await fetch(`${base}/healthz`);
    const body = await get.text();
    const head = await fetch(`${base}/healthz`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('cache-control')).toBe('no-store');
    expect(Number(head.headers.get('content-length'))).toBe(Buffer.byteLength(body));
    expect(await head.text()).toBe('');
  });

  it('answers 503 "unavailable" while the folder holds no build, and 200 once one is deployed', async () => {
    unlinkSync(buildFile);
    const empty = await fetch(`${base}/healthz`);
    expect(empty.status).toBe(503);
    expect(empty.headers.get('cache-control')).toBe('no-store');
    expect(await empty.json()).toStrictEqual({ status: 'unavailable' });
    writeBuild('a-later-build');
    const deployed = await fetch(`${base}/healthz`);
    expect(deployed.status).toBe(200);
    expect(await deployed.json()).toStrictEqual({ status: 'ok', build: 'a-later-build' });
  });

  it.each([
    ['half written', '{"id":"c35f'],
    ['without an id', '{"timestamp":1}'],
    ['with an empty id', '{"id":"","timestamp":1}'],
  ])('answers 503 for a latest.json %s', async (_what, content) => {
    writeFileSync(buildFile, content);
    const res = await fetch(`${base}/healthz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toStrictEqual({ status: 'unavailable' });
  });

  it('answers 503 once shutdown has begun, though the build is there', async () => {
    stopping = true;
    const res = await fetch(`${base}/healthz`);
    expect(res.status).toBe(503);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toStrictEqual({ status: 'unavailable' });
  });

  it('answers other methods with 405 and the allowed ones', async () => {
    const res = await fetch(`${base}/healthz`, { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    await res.arrayBuffer();
  });
});

describe('isHealthUrl', () => {
  it.each([
    ['/healthz', true],
    ['/healthz?probe=lb', true],
    ['/healthz/', false],
    ['/healthzz', false],
    ['/_app/healthz', false],
    ['/', false],
  ])('%s → %p', (url, expected) => {
    expect(isHealthUrl(url)).toBe(expected);
  });
});
