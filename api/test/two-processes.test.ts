/**
 * Two API processes (src/index.ts, as deployed) sharing one PostgreSQL database, over real HTTP:
 * they start together on an empty database (migrations and seeding run once), then race.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Database } from '../src/db/database';
import { openPostgres } from '../src/db/pg-database';
import { type ApiProcess, startApi } from './support/api-process';
import { shippedMigrations } from './support/migrations';
import { createTestDatabase, type TestDatabase } from 'testbed/postgres';
import { insertOpenSessions, visitorWithId } from './support/test-app';
import { PRIZES } from './support/test-db';

let database: TestDatabase;
let db: Database;
let servers: ApiProcess[] = [];
let folder: string;

/** The loose view of an answer the assertions need. */
interface Answer {
  gift?: { giftId: string };
  redeemId?: string;
  voucherCode?: string;
  outcome?: string;
  status?: string;
}

async function call(
  server: ApiProcess,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  cookie?: string,
): Promise<{ status: number; json: Answer }> {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(cookie ? { cookie } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Answer };
}

function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

beforeAll(async () => {
  database = await createTestDatabase();
  db = openPostgres(database.url);
  folder = mkdtempSync(join(tmpdir(), 'api-two-processes-'));
  const catalogue = join(folder, 'catalogue.json');
  writeFileSync(catalogue, JSON.stringify({ prizes: [{ ...PRIZES[0], stock: 7 }] }));
  const env = {
    DATABASE_URL: database.url,
    PRIZE_CATALOGUE_FILE: catalogue,
    GAME_WIN_RATE: '1',
    PLAYS_PER_VISITOR_PER_DAY: '10000',
    PLAYS_PER_IP_PER_DAY: '10000',
    REDEEM_ATTEMPTS_PER_IP_PER_MINUTE: '10000',
  };
  servers = await Promise.all([startApi(env), startApi(env)]);
});

afterAll(async () => {
  const codes = await Promise.all(servers.map((server) => server.stop()));
  await db?.close();
  await database?.drop();
  rmSync(folder, { recursive: true, force: true });
  expect(codes).toEqual([0, 0]);
});

it('migrated and seeded once although both started together', async () => {
  const migrations = await db.query<{ version: string }>('SELECT version FROM schema_migrations');
  expect(migrations.map(({ version }) => version).sort()).toEqual(shippedMigrations());
  const prizes = await db.query<{ id: string; stock: number }>('SELECT id, stock FROM prizes');
  expect(prizes).toEqual([{ id: 'coffee', stock: 7 }]);
});

it('lets exactly one of 20 completions of one gift, racing across both processes, succeed', async () => {
  const [a, b] = servers as [ApiProcess, ApiProcess];
  const won = await call(a, 'POST', '/api/game/plays', {});
  const giftId = won.json.gift!.giftId;
  const sessions = await insertOpenSessions(db, giftId, 20, new Date());
  const started = Date.now();
  const results = await Promise.all(
    sessions.map((id, i) =>
      call(i % 2 === 0 ? a : b, 'POST', `/api/redeems/${id}/complete`, {
        email: `racer${i}@example.com`,
        acceptTerms: true,
      }),
    ),
  );
  const counts = tally(results.map((result) => result.status));
  console.log(
    `[postgres, 2 processes] 20 concurrent completions of one gift across 20 sessions over HTTP: ${counts[200] ?? 0} succeeded, ${counts[409] ?? 0} got 409, all: ${JSON.stringify(counts)} (${Date.now() - started} ms)`,
  );
  expect(counts).toEqual({ 200: 1, 409: 19 });
  const [completed] = await db.query<{ count: number }>(
    "SELECT count(*)::int AS count FROM redeem_sessions WHERE gift_id = $1 AND status = 'completed'",
    [giftId],
  );
  expect(completed?.count).toBe(1);
  expect((await call(b, 'GET', `/api/gifts/${giftId}`)).json.status).toBe('redeemed');
});

it('gives every repeat of one completion, across both processes, the same voucher', async () => {
  const [a, b] = servers as [ApiProcess, ApiProcess];
  const giftId = (await call(b, 'POST', '/api/game/plays', {})).json.gift!.giftId;
  // One browser: the same visitor cookie on every request, whichever process answers.
  const cookie = visitorWithId('CCCCCCCCCCCCCCCCCCCCCCCC');
  const redeemId = (await call(a, 'POST', `/api/gifts/${giftId}/redeems`, {}, cookie)).json.redeemId!;
  const results = await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      call(
        i % 2 === 0 ? a : b,
        'POST',
        `/api/redeems/${redeemId}/complete`,
        { email: 'jane@example.com', acceptTerms: true },
        cookie,
      ),
    ),
  );
  const vouchers = new Set(results.map((result) => result.json.voucherCode));
  console.log(
    `[postgres, 2 processes] 10 concurrent repeats of one completion: ${tally(results.map((r) => r.status))[200] ?? 0} answered 200 with ${vouchers.size} distinct voucher(s)`,
  );
  expect(results.map((result) => result.status)).toEqual(Array(10).fill(200));
  expect(vouchers.size).toBe(1);
});

it('never oversells across processes: the last 5 units and 40 racing plays give 5 gifts', async () => {
  const [a, b] = servers as [ApiProcess, ApiProcess];
  const [before] = await db.query<{ stock: number }>('SELECT stock FROM prizes');
  expect(before?.stock).toBe(5);
  const results = await Promise.all(
    Array.from({ length: 40 }, (_, i) => call(i % 2 === 0 ? a : b, 'POST', '/api/game/plays', {})),
  );
  const wins = results.filter((result) => result.json.outcome === 'win').length;
  const [after] = await db.query<{ stock: number }>('SELECT stock FROM prizes');
  const [gifts] = await db.query<{ count: number }>('SELECT count(*)::int AS count FROM gifts');
  console.log(
    `[postgres, 2 processes] stock 5, 40 concurrent winning plays over HTTP: ${wins} wins, stock left ${after?.stock}, ${gifts?.count} gifts in all`,
  );
  expect(wins).toBe(5);
  expect(after?.stock).toBe(0);
  expect(gifts?.count).toBe(7);
});

it('shows a gift redeemed through one process as redeemed by the other, whose cached copy is dropped on commit', async () => {
  const [a, b] = servers as [ApiProcess, ApiProcess];
  await db.query('UPDATE prizes SET stock = stock + 1');
  const giftId = (await call(a, 'POST', '/api/game/plays', {})).json.gift!.giftId;
  // Both read it (and keep it in memory) while it is available.
  for (const server of [a, b, a, b])
    expect((await call(server, 'GET', `/api/gifts/${giftId}`)).json.status).toBe('available');
  const cookie = visitorWithId('DDDDDDDDDDDDDDDDDDDDDDDD');
  const redeemId = (await call(a, 'POST', `/api/gifts/${giftId}/redeems`, {}, cookie)).json.redeemId!;
  expect(
    (
      await call(
        a,
        'POST',
        `/api/redeems/${redeemId}/complete`,
        { email: 'jane@example.com', acceptTerms: true },
        cookie,
      )
    ).status,
  ).toBe(200);
  const completedAt = Date.now();
  expect((await call(a, 'GET', `/api/gifts/${giftId}`)).json.status).toBe('redeemed');
  let status: string | undefined;
  while (Date.now() - completedAt < 2_000) {
    status = (await call(b, 'GET', `/api/gifts/${giftId}`)).json.status;
    if (status === 'redeemed') break;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  console.log(
    `[postgres, 2 processes] the other process showed the gift redeemed ${Date.now() - completedAt} ms after the completion's answer`,
  );
  expect(status).toBe('redeemed');
});
