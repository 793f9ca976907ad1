/**
 * The database keeps the promises however requests race: one redemption per gift, idempotent
 * repeats, stock never oversold. Requests run concurrently through one app; on PostgreSQL the
 * transactions genuinely overlap on separate connections, PGlite runs them one at a time.
 */
import { type LightMyRequestResponse } from 'fastify';
import { harnessFor } from './support/harness';
import {
  complete,
  insertOpenSessions,
  newVisitor,
  openRedeem,
  play,
  post,
  visitorWithId,
  winGift,
} from './support/test-app';
import { HIGH_LIMITS } from './support/test-config';
import { type Driver, PRIZES } from './support/test-db';

const drivers: Driver[] = ['pglite', 'postgres'];

function tally(responses: LightMyRequestResponse[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const response of responses) counts[response.statusCode] = (counts[response.statusCode] ?? 0) + 1;
  return counts;
}

describe.each(drivers)('concurrency on %s', (driver) => {
  const harness = harnessFor(driver);

  it('lets exactly one of 20 concurrent completions of one gift, across 20 sessions, succeed; the others get 409', async () => {
    const { app, clock, db } = await harness.start({ limits: HIGH_LIMITS });
    const giftId = await winGift(app);
    const sessions = await insertOpenSessions(db, giftId, 20, clock.now());
    const started = Date.now();
    const responses = await Promise.all(
      sessions.map((id, i) => complete(app, id, `visitor${i}@example.com`, { ip: `10.1.0.${i}` })),
    );
    const elapsed = Date.now() - started;
    const counts = tally(responses);
    console.log(
      `[${driver}] 20 concurrent completions of one gift across 20 sessions: ${counts[200] ?? 0} succeeded, ${counts[409] ?? 0} got 409, other: ${JSON.stringify(counts)} (${elapsed} ms)`,
    );
    expect(counts).toEqual({ 200: 1, 409: 19 });

    const rows = await db.query<{ status: string; count: number }>(
      'SELECT status, count(*)::int AS count FROM redeem_sessions WHERE gift_id = $1 GROUP BY status ORDER BY status',
      [giftId],
    );
    expect(rows).toEqual([
      { status: 'completed', count: 1 },
      { status: 'superseded', count: 19 },
    ]);
    const [gift] = await db.query<{ status: string }>('SELECT status FROM gifts WHERE id = $1', [giftId]);
    expect(gift?.status).toBe('redeemed');
  });

  it('gives 20 concurrent completions of one session with the same email the same voucher, redeeming once', async () => {
    const { app, db } = await harness.start({ limits: HIGH_LIMITS });
    const giftId = await winGift(app);
    const cookie = newVisitor();
    const redeemId = await openRedeem(app, giftId, { cookie });
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => complete(app, redeemId, 'jane@example.com', { ip: `10.2.0.${i}`, cookie })),
    );
    const bodies = new Set(responses.map((response) => response.body));
    console.log(
      `[${driver}] 20 concurrent completions of one session, same email: ${tally(responses)[200] ?? 0} answered 200, ${bodies.size} distinct answer(s)`,
    );
    expect(tally(responses)).toEqual({ 200: 20 });
    expect(bodies.size).toBe(1);
    const [completed] = await db.query<{ count: number }>(
      "SELECT count(*)::int AS count FROM redeem_sessions WHERE status = 'completed'",
    );
    expect(completed?.count).toBe(1);
  });

  it('lets one of several emails racing on one session win; the others get 409', async () => {
    const { app } = await harness.start({ limits: HIGH_LIMITS });
    const redeemId = await openRedeem(app, await winGift(app));
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) => complete(app, redeemId, `racer${i}@example.com`)),
    );
    expect(tally(responses)).toEqual({ 200: 1, 409: 9 });
  });

  it('opens one session for many concurrent "Redeem" clicks of one visitor on one gift', async () => {
    const { app } = await harness.start({ limits: HIGH_LIMITS });
    const giftId = await winGift(app);
    const cookie = newVisitor();
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => post(app, `/api/gifts/${giftId}/redeems`, {}, { cookie })),
    );
    expect(tally(responses)).toEqual({ 200: 9, 201: 1 });
    expect(new Set(responses.map((response) => response.json().redeemId)).size).toBe(1);
  });

  it('opens one session per visitor for concurrent "Redeem" clicks of several visitors; the first completion wins', async () => {
    const { app, db } = await harness.start({ limits: HIGH_LIMITS });
    const giftId = await winGift(app);
    const visitors = Array.from({ length: 5 }, newVisitor);
    const responses = await Promise.all(
      visitors.flatMap((cookie) => [0, 1].map(() => post(app, `/api/gifts/${giftId}/redeems`, {}, { cookie }))),
    );
    expect(tally(responses)).toEqual({ 200: 5, 201: 5 });
    const sessions = visitors.map((_, i) => responses[2 * i]!.json<{ redeemId: string }>().redeemId);
    visitors.forEach((_, i) => expect(responses[2 * i + 1]!.json().redeemId).toBe(sessions[i]));
    expect(new Set(sessions).size).toBe(5);

    const completions = await Promise.all(
      sessions.map((id, i) =>
        complete(app, id, `visitor${i}@example.com`, { cookie: visitors[i]!, ip: `10.4.0.${i}` }),
      ),
    );
    expect(tally(completions)).toEqual({ 200: 1, 409: 4 });
    const rows = await db.query<{ status: string; count: number }>(
      'SELECT status, count(*)::int AS count FROM redeem_sessions WHERE gift_id = $1 GROUP BY status ORDER BY status',
      [giftId],
    );
    expect(rows).toEqual([
      { status: 'completed', count: 1 },
      { status: 'superseded', count: 4 },
    ]);
  });

  it('never oversells: stock 5 and 50 concurrent winning plays give exactly 5 gifts', async () => {
    const { app, db } = await harness.start(
      { gameWinRate: 1, limits: HIGH_LIMITS },
      {
        prizes: [
          { ...PRIZES[0]!, stock: 2 },
          { ...PRIZES[1]!, stock: 3 },
        ],
      },
    );
    const started = Date.now();
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => play(app, { ip: `10.3.${Math.floor(i / 250)}.${i % 250}` })),
    );
    const elapsed = Date.now() - started;
    const outcomes = responses.map((response) => response.json<{ outcome: string; soldOut?: boolean }>());
    const wins = outcomes.filter((outcome) => outcome.outcome === 'win').length;
    const soldOut = outcomes.filter((outcome) => outcome.soldOut === true).length;
    const [gifts] = await db.query<{ count: number }>('SELECT count(*)::int AS count FROM gifts');
    const stock = await db.query<{ id: string; stock: number }>('SELECT id, stock FROM prizes ORDER BY id');
    console.log(
      `[${driver}] stock 5, 50 concurrent winning plays: ${wins} wins, ${soldOut} sold-out losses, ${gifts?.count} gifts stored, stock left ${JSON.stringify(stock)} (${elapsed} ms)`,
    );
    expect(tally(responses)).toEqual({ 200: 50 });
    expect(wins).toBe(5);
    expect(soldOut).toBe(45);
    expect(gifts?.count).toBe(5);
    expect(stock).toEqual([
      { id: 'coffee', stock: 0 },
      { id: 'gift-card', stock: 0 },
    ]);
  });

  it('counts concurrent plays of one visitor exactly against the limit', async () => {
    const { app } = await harness.start({
      gameWinRate: 0,
      limits: { playsPerVisitorPerDay: 5, playsPerIpPerDay: 1000 },
    });
    const cookie = visitorWithId('BBBBBBBBBBBBBBBBBBBBBBBB');
    const responses = await Promise.all(Array.from({ length: 12 }, () => play(app, { cookie })));
    expect(tally(responses)).toEqual({ 200: 5, 429: 7 });
    expect(
      responses
        .filter((response) => response.statusCode === 200)
        .map((response) => response.json().playsRemaining)
        .sort(),
    ).toEqual([0, 1, 2, 3, 4]);
  });
});
