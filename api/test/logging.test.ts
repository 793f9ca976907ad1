/** Structured JSON logs, with nothing personal or secret in them. */
import { PassThrough } from 'node:stream';
import { type App } from '../src/app-context';
import { buildApp } from '../src/server';
import { addressHash } from '../src/http/request-log';
import { complete, DEFAULT_IP, get, openRedeem, play, visitorCookie, winGift } from './support/test-app';
import { testConfig } from './support/test-config';
import { openTestDb, type TestDb } from './support/test-db';

let testDb: TestDb;
let app: App;
const lines: string[] = [];

beforeAll(async () => {
  testDb = await openTestDb('pglite');
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
  app = await buildApp({ config: testConfig({ logLevel: 'info' }), db: testDb.db, logStream: stream });
});
afterAll(async () => {
  await app.close();
  await testDb.close();
});

it('writes one JSON object per line, without cookies, emails or voucher codes', async () => {
  const first = await play(app);
  const cookie = visitorCookie(first);
  const giftId = await winGift(app, { cookie });
  const redeemId = await openRedeem(app, giftId, { cookie });
  const done = await complete(app, redeemId, 'secret.person@example.com', { cookie });
  const { voucherCode } = done.json<{ voucherCode: string }>();

  const entries = lines.map(
    (line) =>
      JSON.parse(line) as {
        level: number;
        name: string;
        msg: string;
        res?: { statusCode: number };
        responseTime?: number;
      },
  );
  // One line per request, written once it is answered, with its status and duration.
  const completed = entries.filter((entry) => entry.msg === 'request completed');
  expect(completed.map((entry) => entry.res?.statusCode)).toEqual([200, 200, 201, 200]);
  expect(completed.every((entry) => typeof entry.responseTime === 'number')).toBe(true);
  expect(entries.every((entry) => typeof entry.level === 'number' && typeof entry.msg === 'string')).toBe(true);
  // Every server of ours names itself in each line (server/log).
  expect(entries.every((entry) => entry.name === 'api')).toBe(true);
  const log = lines.join('\n');
  expect(log).not.toContain(cookie.split('=')[1]);
  expect(log).not.toContain('secret.person');
  expect(log).not.toContain(voucherCode);
});

it("logs request paths with ids cut to four characters, and the address only as the counters' hash", async () => {
  lines.length = 0;
  const giftId = await winGift(app);
  const redeemId = await openRedeem(app, giftId);
  await get(app, `/api/redeems/${redeemId}`);
  await complete(app, redeemId, 'jane@example.com', { ip: '2001:db8:1:2::7' });
  await get(app, `/api/gifts/not-an-id-but-secret?token=abc`);

  const requests = lines
    .map((line) => JSON.parse(line) as { req?: Record<string, unknown> })
    .flatMap((entry) => (entry.req ? [entry.req] : []));
  expect(requests.map((req) => req.url)).toEqual([
    '/api/game/plays',
    `/api/gifts/${giftId.slice(0, 4)}…/redeems`,
    `/api/redeems/${redeemId.slice(0, 4)}…`,
    `/api/redeems/${redeemId.slice(0, 4)}…/complete`,
    '/api/gifts/not-…?…',
  ]);
  expect(requests[0]).toStrictEqual({ method: 'POST', url: '/api/game/plays', addressHash: addressHash(DEFAULT_IP) });
  // An IPv6 address is hashed by its /64, as the limits count it.
  expect(requests[3]?.addressHash).toBe(addressHash('2001:db8:1:2::99'));
  expect(requests[3]?.addressHash).not.toBe(addressHash(DEFAULT_IP));
  const log = lines.join('\n');
  for (const secret of [giftId, redeemId, giftId.slice(4), redeemId.slice(4), DEFAULT_IP, '2001:db8', 'token=abc'])
    expect(log).not.toContain(secret);
});

it('logs health checks at debug only, so the probes of a supervisor or balancer do not bury the requests at info', async () => {
  lines.length = 0;
  for (const path of ['/api/health', '/api/health/live', '/api/health/ready'])
    expect((await get(app, path)).statusCode).toBe(200);
  await get(app, '/api/gifts/AbCdEfGhIjKlMnOpQrStUvWx');
  const urls = lines.map((line) => (JSON.parse(line) as { req?: { url: string } }).req?.url);
  expect(urls).toEqual(['/api/gifts/AbCd…']);
});

it('writes the apps of one process through one stdout destination, adding no listener to the process per app', async () => {
  const buildAndClose = async () => {
    const another = await buildApp({ config: testConfig(), db: testDb.db });
    await another.close();
  };
  // The first app without a log stream of its own makes the process's destination.
  await buildAndClose();
  const exitListeners = process.listenerCount('exit');
  for (let built = 0; built < 3; built += 1) await buildAndClose();
  expect(process.listenerCount('exit')).toBe(exitListeners);
});
