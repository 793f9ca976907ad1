/** GET /api/gifts/:giftId and POST /api/gifts/:giftId/redeems. */
import { ID_PATTERN } from 'shared/ids';
import { countingDb, harnessFor } from './support/harness';
import { complete, get, newVisitor, openRedeem, post, visitorCookie, winGift } from './support/test-app';
import { DAY, MINUTE } from './support/test-clock';
import { type Driver } from './support/test-db';

const drivers: Driver[] = ['pglite', 'postgres'];
const UNKNOWN_ID = 'AAAAAAAAAAAAAAAAAAAAAAAA';
const MALFORMED_IDS = ['short', 'AAAAAAAAAAAAAAAAAAAAAAA!', 'AAAAAAAAAAAAAAAAAAAAAAAAA', '%20AAAAAAAAAAAAAAAAAAAAAA'];
const notFound = { statusCode: 404, statusMessage: 'Not Found', message: 'Gift not found.' };

describe.each(drivers)('gifts on %s', (driver) => {
  const harness = harnessFor(driver);

  describe('GET /api/gifts/:giftId', () => {
    it('answers the gift with its prize', async () => {
      const { app, clock } = await harness.start();
      const giftId = await winGift(app);
      const response = await get(app, `/api/gifts/${giftId}`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toStrictEqual({
        giftId,
        prize: expect.objectContaining({
          id: expect.any(String),
          name: expect.any(String),
          icon: expect.stringMatching(/^mdi:/),
        }),
        status: 'available',
        createdAt: clock.now().toISOString(),
        expiresAt: new Date(clock.now().getTime() + 30 * DAY).toISOString(),
        redeemedAt: null,
      });
    });

    it('answers an unknown id with 404', async () => {
      const { app } = await harness.start();
      const response = await get(app, `/api/gifts/${UNKNOWN_ID}`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toStrictEqual(notFound);
    });

    it.each(MALFORMED_IDS)('answers the malformed id %j with 404 without asking the database', async (id) => {
      const counter = { calls: 0 };
      const { app } = await harness.start({}, { db: (db) => countingDb(db, counter) });
      for (const url of [`/api/gifts/${id}`, `/api/gifts/${id}/redeems`]) {
        const response = url.endsWith('/redeems') ? await post(app, url) : await get(app, url);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toStrictEqual(notFound);
      }
      expect(counter.calls).toBe(0);
    });

    it('shows an expired gift as expired (200), from the moment it expires', async () => {
      const { app, clock } = await harness.start();
      const giftId = await winGift(app);
      clock.advance(30 * DAY - 1);
      expect((await get(app, `/api/gifts/${giftId}`)).json().status).toBe('available');
      clock.advance(1);
      const response = await get(app, `/api/gifts/${giftId}`);
      expect(response.statusCode).toBe(200);
      expect(response.json().status).toBe('expired');
    });

    it('shows a redeemed gift as redeemed, with when', async () => {
      const { app, clock } = await harness.start();
      const giftId = await winGift(app);
      const redeemId = await openRedeem(app, giftId);
      // Read while available (kept in memory), then redeemed: the read after shows the change.
      expect((await get(app, `/api/gifts/${giftId}`)).json().status).toBe('available');
      clock.advance(5 * MINUTE);
      expect((await complete(app, redeemId)).statusCode).toBe(200);
      expect((await get(app, `/api/gifts/${giftId}`)).json().status).toBe('redeemed');
      clock.advance(40 * DAY);
      const body = (await get(app, `/api/gifts/${giftId}`)).json();
      expect(body.status).toBe('redeemed');
      expect(body.redeemedAt).toBe(new Date(clock.now().getTime() - 40 * DAY).toISOString());
    });
  });

  describe('POST /api/gifts/:giftId/redeems', () => {
    it('opens a redeem session (201) and sets the visitor cookie, then answers the same visitor the same open session (200)', async () => {
      const { app } = await harness.start();
      const giftId = await winGift(app);
      const first = await post(app, `/api/gifts/${giftId}/redeems`);
      expect(first.statusCode).toBe(201);
      expect(first.json()).toStrictEqual({ redeemId: expect.stringMatching(ID_PATTERN) });
      const cookie = visitorCookie(first);
      expect(cookie).toMatch(/^p_visitor=[A-Za-z0-9_-]{24}\.[A-Za-z0-9_-]{32}$/);
      expect(first.headers['set-cookie']).toMatch(/HttpOnly/i);
      const second = await post(app, `/api/gifts/${giftId}/redeems`, {}, { cookie });
      expect(second.statusCode).toBe(200);
      expect(second.json()).toStrictEqual(first.json());
      expect(second.headers['set-cookie']).toBeUndefined();
    });

    it('gives another visitor holding the gift link a session of their own (201), never the first one', async () => {
      const { app } = await harness.start();
      const giftId = await winGift(app);
      const owner = newVisitor();
      const stranger = newVisitor();
      const mine = await openRedeem(app, giftId, { cookie: owner });
      const theirs = await post(app, `/api/gifts/${giftId}/redeems`, {}, { cookie: stranger });
      expect(theirs.statusCode).toBe(201);
      expect(theirs.json().redeemId).not.toBe(mine);
      // Without a cookie: a new visitor again, and a new session.
      const anonymous = await post(app, `/api/gifts/${giftId}/redeems`);
      expect(anonymous.statusCode).toBe(201);
      expect([mine, theirs.json().redeemId]).not.toContain(anonymous.json().redeemId);
      // Each visitor keeps getting their own.
      expect(await openRedeem(app, giftId, { cookie: owner })).toBe(mine);
      expect(await openRedeem(app, giftId, { cookie: stranger })).toBe(theirs.json().redeemId);
      const [stored] = await harness.db.query<{ visitor_hash: string }>(
        'SELECT visitor_hash FROM redeem_sessions WHERE id = $1',
        [mine],
      );
      expect(stored?.visitor_hash).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(stored?.visitor_hash).not.toContain(owner.split('=')[1]);
    });

    it('refuses no body at all: a bodyless POST needs no CORS preflight', async () => {
      const { app } = await harness.start();
      const giftId = await winGift(app);
      const response = await app.inject({ method: 'POST', url: `/api/gifts/${giftId}/redeems` });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('Send the request body as JSON (Content-Type: application/json).');
    });

    it('opens a new session once the open one expired', async () => {
      const { app, clock } = await harness.start();
      const giftId = await winGift(app);
      const cookie = newVisitor();
      const first = await openRedeem(app, giftId, { cookie });
      clock.advance(30 * MINUTE);
      const response = await post(app, `/api/gifts/${giftId}/redeems`, {}, { cookie });
      expect(response.statusCode).toBe(201);
      expect(response.json().redeemId).not.toBe(first);
    });

    it('refuses a redeemed gift with 409, to the visitor who redeemed it and to anyone else', async () => {
      const { app } = await harness.start();
      const giftId = await winGift(app);
      const cookie = newVisitor();
      await complete(app, await openRedeem(app, giftId, { cookie }), 'jane@example.com', { cookie });
      for (const options of [{ cookie }, { cookie: newVisitor() }, {}]) {
        const response = await post(app, `/api/gifts/${giftId}/redeems`, {}, options);
        expect(response.statusCode).toBe(409);
        expect(response.json()).toStrictEqual({
          statusCode: 409,
          statusMessage: 'Conflict',
          message: 'This gift has already been redeemed.',
        });
      }
    });

    it('refuses an expired gift with 410', async () => {
      const { app, clock } = await harness.start();
      const giftId = await winGift(app);
      clock.advance(30 * DAY);
      const response = await post(app, `/api/gifts/${giftId}/redeems`);
      expect(response.statusCode).toBe(410);
      expect(response.json()).toStrictEqual({
        statusCode: 410,
        statusMessage: 'Gone',
        message: 'This gift has expired.',
      });
    });

    it('answers an unknown gift with 404', async () => {
      const { app } = await harness.start();
      const response = await post(app, `/api/gifts/${UNKNOWN_ID}/redeems`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toStrictEqual(notFound);
    });

    it('refuses a body with fields (400) and opens nothing', async () => {
      const { app } = await harness.start();
      const giftId = await winGift(app);
      const response = await post(app, `/api/gifts/${giftId}/redeems`, { email: 'jane@example.com' });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('Invalid request body: Unrecognized key: "email"');
      const [sessions] = await harness.db.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM redeem_sessions',
      );
      expect(sessions?.count).toBe(0);
    });
  });
});
