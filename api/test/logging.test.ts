/** Structured JSON logs, with nothing personal or secret in them. */
import { PassThrough } from 'node:stream';
import { type App } from '../src/app-context';
import { buildApp } from '../src/server';
import { complete, openRedeem, play, visitorCookie, winGift } from './support/test-app';
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
  const redeemId = await openRedeem(app, giftId);
  const done = await complete(app, redeemId, 'secret.person@example.com');
  const { voucherCode } = done.json<{ voucherCode: string }>();

  const entries = lines.map((line) => JSON.parse(line) as { level: number; msg: string });
  expect(entries.length).toBeGreaterThanOrEqual(8);
  expect(entries.every((entry) => typeof entry.level === 'number' && typeof entry.msg === 'string')).toBe(true);
  const log = lines.join('\n');
  expect(log).not.toContain(cookie.split('=')[1]);
  expect(log).not.toContain('secret.person');
  expect(log).not.toContain(voucherCode);
});
