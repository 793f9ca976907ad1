/**
 * What bounds redeem sessions: the open sessions one gift may have (REDEEM_SESSIONS_PER_GIFT),
 * the requests to open one per address (REDEEM_OPENS_PER_IP_PER_MINUTE), and the reads of
 * unknown sessions per address (UNKNOWN_REDEEM_READS_PER_IP_PER_MINUTE). On PostgreSQL the
 * concurrent opens genuinely overlap on separate connections.
 */
import { type LightMyRequestResponse } from 'fastify';
import { harnessFor } from './support/harness';
import { complete, get, newVisitor, openRedeem, post, winGift } from './support/test-app';
import { MINUTE } from './support/test-clock';
import { HIGH_LIMITS } from './support/test-config';
import { type Driver } from './support/test-db';

const drivers: Driver[] = ['pglite', 'postgres'];
const UNKNOWN_ID = 'AAAAAAAAAAAAAAAAAAAAAAAA';
const error = (statusCode: number, statusMessage: string, message: string) => ({ statusCode, statusMessage, message });
const tooManySessions = error(
  429,
  'Too Many Requests',
  'This gift is being redeemed in too many other browsers right now. Try again in a few minutes.',
);

function tally(responses: LightMyRequestResponse[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const response of responses) counts[response.statusCode] = (counts[response.statusCode] ?? 0) + 1;
  return counts;
}

const openAs = (app: Parameters<typeof post>[0], giftId: string, cookie: string, ip?: string) =>
  post(app, `/api/gifts/${giftId}/redeems`, {}, { cookie, ip });

describe.each(drivers)('redeem session limits on %s', (driver) => {
  const harness = harnessFor(driver);

  async function sessionsOf(giftId: string): Promise<number> {
    const [row] = await harness.db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM redeem_sessions WHERE gift_id = $1',
      [giftId],
    );
    return row?.count ?? 0;
  }

  describe('POST /api/gifts/:giftId/redeems', () => {
    it('makes at most 5 sessions of a gift out of 300 opens with 300 fresh cookies, from addresses of their own; the rest get 429', async () => {
      // The per-address limit out of the way: the gift's own bound alone refuses them.
      const { app } = await harness.start({ limits: { ...HIGH_LIMITS, redeemSessionsPerGift: 5 } });
      const giftId = await winGift(app);
      const responses: LightMyRequestResponse[] = [];
      for (let i = 0; i < 300; i += 1)
        responses.push(await openAs(app, giftId, newVisitor(), `198.51.100.${(i % 250) + 1}`));
      const counts = tally(responses);
      expect(counts[201]).toBe(5);
      expect(counts[429]).toBe(295);
      for (const refused of responses.filter((response) => response.statusCode === 429))
        expect(refused.json()).toStrictEqual(tooManySessions);
      expect(await sessionsOf(giftId)).toBe(5);
    });

    it('refuses a new visitor once the gift has REDEEM_SESSIONS_PER_GIFT open sessions, until the first expires', async () => {
      const { app, clock } = await harness.start({ limits: { ...HIGH_LIMITS, redeemSessionsPerGift: 2 } });
      const giftId = await winGift(app);
      const [first, second, third] = [newVisitor(), newVisitor(), newVisitor()];
      expect((await openAs(app, giftId, first)).statusCode).toBe(201);
      clock.advance(10 * MINUTE);
      expect((await openAs(app, giftId, second)).statusCode).toBe(201);

      const refused = await openAs(app, giftId, third);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toStrictEqual(tooManySessions);
      // The first session expires 30 minutes after it opened: 20 minutes from now.
      expect(refused.headers['retry-after']).toBe(String(20 * 60));
      expect(await sessionsOf(giftId)).toBe(2);

      // A visitor who has a session gets it back, however full the gift is.
      expect((await openAs(app, giftId, second)).statusCode).toBe(200);
      clock.advance(20 * MINUTE);
      expect((await openAs(app, giftId, third)).statusCode).toBe(201);
    });

    it('counts only open sessions: a completed redemption ends the gift, an expired session frees its place', async () => {
      const { app, clock } = await harness.start({ limits: { ...HIGH_LIMITS, redeemSessionsPerGift: 1 } });
      const giftId = await winGift(app);
      const owner = newVisitor();
      await openRedeem(app, giftId, { cookie: owner });
      expect((await openAs(app, giftId, newVisitor())).statusCode).toBe(429);
      clock.advance(30 * MINUTE);
      const later = newVisitor();
      const redeemId = await openRedeem(app, giftId, { cookie: later });
      expect((await complete(app, redeemId, 'jane@example.com', { cookie: later })).statusCode).toBe(200);
      expect((await openAs(app, giftId, newVisitor())).statusCode).toBe(409);
    });

    it('opens exactly REDEEM_SESSIONS_PER_GIFT sessions for 20 visitors clicking "Redeem" at once', async () => {
      const { app } = await harness.start({ limits: HIGH_LIMITS });
      const giftId = await winGift(app);
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, i) => openAs(app, giftId, newVisitor(), `10.9.0.${i}`)),
      );
      expect(tally(responses)).toEqual({ 201: 5, 429: 15 });
      expect(await sessionsOf(giftId)).toBe(5);
    });

    it('refuses an address past REDEEM_OPENS_PER_IP_PER_MINUTE with 429 and Retry-After, whatever the outcome', async () => {
      const { app, clock } = await harness.start({ limits: { redeemOpensPerIpPerMinute: 3 } });
      const giftId = await winGift(app);
      const cookie = newVisitor();
      clock.set('2030-03-15T10:00:45.000Z');
      // An unknown gift counts too: guessing gift ids costs the same.
      expect((await openAs(app, UNKNOWN_ID, cookie)).statusCode).toBe(404);
      expect((await openAs(app, giftId, cookie)).statusCode).toBe(201);
      expect((await openAs(app, giftId, cookie)).statusCode).toBe(200);
      const refused = await openAs(app, giftId, cookie);
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe('15');
      expect(refused.json()).toStrictEqual(
        error(429, 'Too Many Requests', 'Too many redeem requests from your network. Wait a minute and try again.'),
      );
      expect((await openAs(app, giftId, cookie, '192.0.2.50')).statusCode).toBe(200);
      clock.advance(15_000);
      expect((await openAs(app, giftId, cookie)).statusCode).toBe(200);
      expect(await sessionsOf(giftId)).toBe(1);
    });
  });

  describe('GET /api/redeems/:redeemId of unknown ids', () => {
    it('answers 404 up to UNKNOWN_REDEEM_READS_PER_IP_PER_MINUTE, then 429 to unknown ids of the address, while its sessions that exist are still read', async () => {
      const { app, clock } = await harness.start({ limits: { unknownRedeemReadsPerIpPerMinute: 3 } });
      const redeemId = await openRedeem(app, await winGift(app));
      clock.set('2030-03-15T10:00:50.000Z');
      // Reads of a session that exists cost nothing.
      for (let i = 0; i < 5; i += 1) expect((await get(app, `/api/redeems/${redeemId}`)).statusCode).toBe(200);
      for (let i = 0; i < 3; i += 1) expect((await get(app, `/api/redeems/${UNKNOWN_ID}`)).statusCode).toBe(404);

      const refused = await get(app, `/api/redeems/${UNKNOWN_ID}`);
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe('10');
      expect(refused.json()).toStrictEqual(
        error(
          429,
          'Too Many Requests',
          'Too many requests for redeem links that do not exist. Wait a minute and try again.',
        ),
      );
      // Whoever shares the address still reads their own session.
      expect((await get(app, `/api/redeems/${redeemId}`)).statusCode).toBe(200);
      // Another address has its own budget; the minute over, this one has its budget again.
      expect((await get(app, `/api/redeems/${UNKNOWN_ID}`, { ip: '192.0.2.50' })).statusCode).toBe(404);
      clock.advance(10_000);
      expect((await get(app, `/api/redeems/${UNKNOWN_ID}`)).statusCode).toBe(404);
    });
  });
});
