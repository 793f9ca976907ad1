/**
 * PostgreSQL restarts under load, as every production database does (an upgrade, a failover):
 * two API processes keep running, requests that met the outage answer 503 with Retry-After and
 * nothing else fails, both answer 200 again within seconds of the server's return, and every
 * completion is exactly-once: one voucher per gift, and a completion whose answer was lost
 * returns its voucher when repeated.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { type ApiProcess, startApi } from './support/api-process';
import { type Cluster, startCluster } from 'testbed/postgres';
import { visitorWithId } from './support/test-app';
import { PRIZES } from './support/test-db';

const OUTAGE_MS = 3_000;
const WORKERS = 6;
const GIFTS = 150;

let cluster: Cluster;
let databaseUrl: string;
let servers: ApiProcess[] = [];
let folder: string;

interface Answer {
  status: number | 'network error';
  body: { gift?: { giftId: string }; redeemId?: string; voucherCode?: string };
  retryAfter: string | null;
  at: number;
}

async function call(
  server: ApiProcess,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  cookie?: string,
): Promise<Answer> {
  try {
    const response = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(cookie ? { cookie } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    return {
      status: response.status,
      body: (await response.json()) as Answer['body'],
      retryAfter: response.headers.get('retry-after'),
      at: Date.now(),
    };
  } catch {
    return { status: 'network error', body: {}, retryAfter: null, at: Date.now() };
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The answers a visitor may legitimately get while the database restarts. */
const EXPECTED = new Set<Answer['status']>([200, 201, 409, 503]);

interface Session {
  giftId: string;
  redeemId: string;
  cookie: string;
  email: string;
}

beforeAll(async () => {
  // A cluster of its own: restarting the shared one would break the other test files.
  cluster = await startCluster();
  const admin = new Client({ connectionString: cluster.url });
  await admin.connect();
  await admin.query('CREATE DATABASE restart_test');
  await admin.end();
  const url = new URL(cluster.url);
  url.pathname = '/restart_test';
  databaseUrl = url.toString();
  folder = mkdtempSync(join(tmpdir(), 'api-restart-'));
  const catalogue = join(folder, 'catalogue.json');
  writeFileSync(catalogue, JSON.stringify({ prizes: [{ ...PRIZES[0], stock: 100_000 }] }));
  const env = {
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: '4',
    PRIZE_CATALOGUE_FILE: catalogue,
    GAME_WIN_RATE: '1',
    PLAYS_PER_VISITOR_PER_DAY: '1000000',
    PLAYS_PER_IP_PER_DAY: '1000000',
    REDEEM_ATTEMPTS_PER_IP_PER_MINUTE: '1000000',
    REDEEM_OPENS_PER_IP_PER_MINUTE: '1000000',
  };
  servers = await Promise.all([startApi(env), startApi(env)]);
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await cluster?.stop();
  rmSync(folder, { recursive: true, force: true });
});

async function openSessions(count: number): Promise<Session[]> {
  const [a] = servers as [ApiProcess];
  const sessions: Session[] = [];
  for (let i = 0; i < count; i += 1) {
    const cookie = visitorWithId(`visitor${String(i).padStart(4, '0')}`.padEnd(24, 'x'));
    const won = await call(a, 'POST', '/api/game/plays', {}, cookie);
    const giftId = won.body.gift?.giftId ?? '';
    const opened = await call(a, 'POST', `/api/gifts/${giftId}/redeems`, {}, cookie);
    if (opened.status !== 201 || !opened.body.redeemId) throw new Error(`could not open a session: ${opened.status}`);
    sessions.push({ giftId, redeemId: opened.body.redeemId, cookie, email: `winner${i}@example.com` });
  }
  return sessions;
}

const completion = (server: ApiProcess, session: Session) =>
  call(
    server,
    'POST',
    `/api/redeems/${session.redeemId}/complete`,
    { email: session.email, acceptTerms: true },
    session.cookie,
  );

it('keeps both processes up through a PostgreSQL restart, answers 503 meanwhile, recovers by itself, and completes every redemption exactly once', async () => {
  const [a, b] = servers as [ApiProcess, ApiProcess];
  const sessions = await openSessions(GIFTS);
  const queue = [...sessions];
  const answers: Answer[] = [];
  const completions: Answer[] = [];
  const vouchersSeen = new Map<string, Set<string>>();
  const seen = (session: Session, answer: Answer) => {
    if (answer.status === 200 && answer.body.voucherCode) {
      const set = vouchersSeen.get(session.redeemId) ?? new Set<string>();
      set.add(answer.body.voucherCode);
      vouchersSeen.set(session.redeemId, set);
    }
  };

  let running = true;
  const worker = async (index: number) => {
    for (let round = 0; running && round < 10_000; round += 1) {
      const server = (index + round) % 2 === 0 ? a : b;
      const other = server === a ? b : a;
      // Two workers complete a redemption every fourth round, so completions span the outage.
      const session = index < 2 && round % 4 === 0 ? queue.shift() : undefined;
      if (session) {
        // A double click landing on both processes at once.
        const both = await Promise.all([completion(server, session), completion(other, session)]);
        both.forEach((answer) => seen(session, answer));
        answers.push(...both);
        completions.push(...both);
      } else if (round % 2 === 1) {
        answers.push(await call(server, 'POST', '/api/game/plays', {}));
      } else {
        answers.push(await call(server, 'GET', `/api/gifts/${sessions[round % sessions.length]?.giftId}`));
      }
      await sleep(25);
    }
  };
  const load = Promise.all(Array.from({ length: WORKERS }, (_, index) => worker(index)));

  await sleep(1_500);
  const pausedAt = Date.now();
  await cluster.pause();
  await sleep(OUTAGE_MS);
  await cluster.resume();
  const resumedAt = Date.now();
  // Load goes on until each process has answered a request that needed the database again.
  const deadline = resumedAt + 30_000;
  let firstOkAfter: number | undefined;
  while (Date.now() < deadline) {
    const checks = await Promise.all([a, b].map((server) => call(server, 'GET', '/api/health/ready')));
    if (checks.every((check) => check.status === 200)) {
      firstOkAfter = Date.now() - resumedAt;
      break;
    }
    await sleep(100);
  }
  await sleep(1_000);
  running = false;
  await load;

  const tally: Record<string, number> = {};
  for (const answer of answers) tally[String(answer.status)] = (tally[String(answer.status)] ?? 0) + 1;
  const unavailable = answers.filter((answer) => answer.status === 503);
  const during = unavailable.filter((answer) => answer.at >= pausedAt);
  const completionsDuring = completions.filter((answer) => answer.at >= pausedAt && answer.at <= resumedAt);
  console.log(
    `[postgres restart, 2 processes] outage ${OUTAGE_MS} ms, ${answers.length} requests: ${JSON.stringify(tally)}; ` +
      `both ready ${firstOkAfter ?? 'never'} ms after PostgreSQL was back; ${sessions.length - queue.length} completions attempted under load, ` +
      `${completionsDuring.length} completion requests during the outage`,
  );

  // Both processes are alive and answering.
  expect(servers.map((server) => server.child.exitCode)).toEqual([null, null]);
  expect(firstOkAfter).toBeDefined();
  expect(firstOkAfter).toBeLessThan(10_000);
  // Nothing but what a visitor may get: no 500, no cut connection; the outage was met with 503 + Retry-After.
  expect(answers.filter((answer) => !EXPECTED.has(answer.status))).toEqual([]);
  expect(during.length).toBeGreaterThan(0);
  expect(completionsDuring.length).toBeGreaterThan(0);
  expect(unavailable.every((answer) => answer.retryAfter === '2')).toBe(true);
  for (const server of [a, b])
    expect((await call(server, 'GET', `/api/gifts/${sessions[0]?.giftId}`)).status).toBe(200);

  // Every completion, repeated now (as the visitor whose answer was lost would), returns the one stored voucher.
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (const session of sessions) {
      const repeat = await completion(a, session);
      expect(repeat.status).toBe(200);
      seen(session, repeat);
      const stored = await client.query<{ voucher_code: string }>(
        "SELECT voucher_code FROM redeem_sessions WHERE id = $1 AND status = 'completed'",
        [session.redeemId],
      );
      expect([...(vouchersSeen.get(session.redeemId) ?? [])]).toEqual([stored.rows[0]?.voucher_code]);
    }
    const twice = await client.query(
      "SELECT gift_id FROM redeem_sessions WHERE status = 'completed' GROUP BY gift_id HAVING count(*) > 1",
    );
    expect(twice.rows).toEqual([]);
    const distinct = await client.query<{ n: number }>(
      "SELECT count(DISTINCT voucher_code)::int AS n FROM redeem_sessions WHERE status = 'completed'",
    );
    expect(distinct.rows[0]?.n).toBe(sessions.length);
  } finally {
    await client.end();
  }
});
