/** GET /api/redeems/:redeemId and POST /api/redeems/:redeemId/complete. */
import { VOUCHER_PATTERN } from '../src/codes';
import { countingDb, harnessFor, type StartOptions } from './support/harness';
import {
  complete,
  get,
  insertOpenSessions,
  newVisitor,
  openRedeem,
  post,
  visitorCookie,
  winGift,
} from './support/test-app';
import { DAY, MINUTE } from './support/test-clock';
import { type Driver, PRIZES } from './support/test-db';

const drivers: Driver[] = ['pglite', 'postgres'];
const UNKNOWN_ID = 'AAAAAAAAAAAAAAAAAAAAAAAA';
const notFound = { statusCode: 404, statusMessage: 'Not Found', message: 'Redeem session not found.' };
const error = (statusCode: number, statusMessage: string, message: string) => ({ statusCode, statusMessage, message });

/** The voucher terms of a prize of the test catalogue, as the API shows them. */
function termsOf(prizeId: string) {
  const prize = PRIZES.find((candidate) => candidate.id === prizeId);
  if (!prize) throw new Error(`no prize ${prizeId} in the test catalogue`);
  return { howToUse: prize.howToUse, conditions: prize.conditions, validDays: prize.voucherValidDays };
}

describe.each(drivers)('redeem sessions on %s', (driver) => {
  const harness = harnessFor(driver);

  /** A gift and a session opened by one visitor, whose Cookie header is `cookie`. */
  async function openSession(overrides = {}, options: StartOptions = {}) {
    const started = await harness.start(overrides, options);
    const giftId = await winGift(started.app);
    const cookie = newVisitor();
    const redeemId = await openRedeem(started.app, giftId, { cookie });
    return { ...started, giftId, redeemId, cookie };
  }

  describe('GET /api/redeems/:redeemId', () => {
    it('answers an open session with its gift, and nothing of a voucher yet', async () => {
      const { app, clock, giftId, redeemId } = await openSession();
      const gift = (await get(app, `/api/gifts/${giftId}`)).json();
      const response = await get(app, `/api/redeems/${redeemId}`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toStrictEqual({
        redeemId,
        status: 'open',
        createdAt: clock.now().toISOString(),
        expiresAt: new Date(clock.now().getTime() + 30 * MINUTE).toISOString(),
        gift,
        completedAt: null,
        voucherCode: null,
        emailHint: null,
        voucherTerms: termsOf(gift.prize.id),
        voucherValidUntil: null,
      });
    });

    it('answers an unknown id with 404, a malformed one too without asking the database', async () => {
      const counter = { calls: 0 };
      const { app } = await harness.start({}, { db: (db) => countingDb(db, counter) });
      expect((await get(app, `/api/redeems/${UNKNOWN_ID}`)).json()).toStrictEqual(notFound);
      const before = counter.calls;
      for (const response of [await get(app, '/api/redeems/nope'), await complete(app, 'nope')]) {
        expect(response.statusCode).toBe(404);
        expect(response.json()).toStrictEqual(notFound);
      }
      expect(counter.calls).toBe(before);
    });

    it('shows a session as expired after 30 minutes', async () => {
      const { app, clock, redeemId } = await openSession();
      clock.advance(30 * MINUTE - 1);
      expect((await get(app, `/api/redeems/${redeemId}`)).json().status).toBe('open');
      clock.advance(1);
      const response = await get(app, `/api/redeems/${redeemId}`);
      expect(response.statusCode).toBe(200);
      expect(response.json().status).toBe('expired');
    });

    it('shows a session as expired when its gift expired', async () => {
      const { app, clock, giftId } = await openSession();
      clock.advance(30 * DAY - 10 * MINUTE);
      const redeemId = await openRedeem(app, giftId);
      clock.advance(10 * MINUTE);
      const body = (await get(app, `/api/redeems/${redeemId}`)).json();
      expect(body.status).toBe('expired');
      expect(body.gift.status).toBe('expired');
    });
  });

  describe('the voucher’s details', () => {
    it('a completion fixes until when the voucher can be used: its prize’s days from the redemption', async () => {
      const { app, clock, redeemId, cookie } = await openSession();
      clock.advance(5 * MINUTE);
      const result = (await complete(app, redeemId, 'jane@example.com', { cookie })).json();
      const view = (await get(app, `/api/redeems/${redeemId}`, { cookie })).json();
      const { validDays } = termsOf(view.gift.prize.id);
      expect(result.voucherValidUntil).toBe(new Date(clock.now().getTime() + validDays * DAY).toISOString());
      expect(view.voucherValidUntil).toBe(result.voucherValidUntil);
      expect(view.voucherTerms).toStrictEqual(termsOf(view.gift.prize.id));

      // Later, and again: the same date, not one counted from the repeat.
      clock.advance(3 * DAY);
      const again = (await complete(app, redeemId, 'jane@example.com', { cookie })).json();
      expect(again.voucherValidUntil).toBe(result.voucherValidUntil);
      expect((await get(app, `/api/redeems/${redeemId}`, { cookie })).json().voucherValidUntil).toBe(
        result.voucherValidUntil,
      );
    });

    it('each prize’s own terms and days; anyone else with the link sees the terms but not the validity', async () => {
      // One prize at a time, so the test knows which one is won.
      for (const prize of PRIZES) {
        const { app, clock, redeemId, cookie } = await openSession({}, { prizes: [prize] });
        const open = (await get(app, `/api/redeems/${redeemId}`, { cookie })).json();
        expect(open.voucherTerms).toStrictEqual(termsOf(prize.id));
        await complete(app, redeemId, 'jane@example.com', { cookie });
        const mine = (await get(app, `/api/redeems/${redeemId}`, { cookie })).json();
        expect(mine.voucherValidUntil).toBe(
          new Date(clock.now().getTime() + prize.voucherValidDays * DAY).toISOString(),
        );
        const theirs = (await get(app, `/api/redeems/${redeemId}`, { cookie: newVisitor() })).json();
        expect(theirs).toMatchObject({ status: 'completed', voucherCode: null, voucherValidUntil: null });
        expect(theirs.voucherTerms).toStrictEqual(termsOf(prize.id));
      }
    });
  });

  describe('POST /api/redeems/:redeemId/complete', () => {
    it('redeems the gift and shows the voucher to its visitor', async () => {
      const { app, clock, giftId, redeemId, cookie } = await openSession();
      clock.advance(2 * MINUTE);
      const response = await complete(app, redeemId, '  Jane.Doe@Example.com ', { cookie });
      expect(response.statusCode).toBe(200);
      const result = response.json();
      expect(result).toStrictEqual({
        voucherCode: expect.stringMatching(VOUCHER_PATTERN),
        redeemedAt: clock.now().toISOString(),
        voucherValidUntil: expect.any(String),
      });

      const view = (await get(app, `/api/redeems/${redeemId}`, { cookie })).json();
      expect(view).toMatchObject({
        status: 'completed',
        completedAt: result.redeemedAt,
        voucherCode: result.voucherCode,
        emailHint: 'J•••@Example.com',
      });
      expect(view.gift).toMatchObject({ giftId, status: 'redeemed', redeemedAt: result.redeemedAt });
      const [stored] = await harness.db.query<{ email: string }>('SELECT email FROM redeem_sessions WHERE id = $1', [
        redeemId,
      ]);
      expect(stored?.email).toBe('Jane.Doe@Example.com');
    });

    it('answers a repeat with the same email the same way, even after the session would have expired', async () => {
      const { app, clock, redeemId, cookie } = await openSession();
      const first = (await complete(app, redeemId, 'jane@example.com', { cookie })).json();
      clock.advance(2 * DAY);
      const again = await complete(app, redeemId, 'JANE@example.com', { cookie });
      expect(again.statusCode).toBe(200);
      expect(again.json()).toStrictEqual(first);
      const [count] = await harness.db.query<{ count: number }>(
        "SELECT count(*)::int AS count FROM redeem_sessions WHERE status = 'completed'",
      );
      expect(count?.count).toBe(1);
    });

    it('refuses a repeat with another email with 409', async () => {
      const { app, redeemId, cookie } = await openSession();
      await complete(app, redeemId, 'jane@example.com', { cookie });
      const response = await complete(app, redeemId, 'john@example.com', { cookie });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toStrictEqual(
        error(409, 'Conflict', 'This gift has already been redeemed with another email address.'),
      );
    });

    it('refuses an expired session with 410, and leaves the gift available', async () => {
      const { app, clock, giftId, redeemId } = await openSession();
      clock.advance(30 * MINUTE);
      const response = await complete(app, redeemId);
      expect(response.statusCode).toBe(410);
      expect(response.json()).toStrictEqual(
        error(410, 'Gone', 'This redeem session has expired. Open the gift again to start a new one.'),
      );
      expect((await get(app, `/api/gifts/${giftId}`)).json().status).toBe('available');
    });

    it('refuses a session whose gift expired with 410', async () => {
      const { app, clock, giftId } = await openSession();
      clock.advance(30 * DAY - 10 * MINUTE);
      const redeemId = await openRedeem(app, giftId);
      clock.advance(10 * MINUTE);
      const response = await complete(app, redeemId);
      expect(response.statusCode).toBe(410);
      expect(response.json()).toStrictEqual(error(410, 'Gone', 'This gift has expired.'));
    });

    it('supersedes the other open sessions of the gift: they read superseded and complete with 409', async () => {
      const { app, clock, db, giftId, redeemId } = await openSession();
      const [other, expiredOne] = await insertOpenSessions(db, giftId, 2, clock.now());
      await db.query('UPDATE redeem_sessions SET expires_at = $2::timestamptz WHERE id = $1', [
        expiredOne,
        clock.now(),
      ]);
      clock.advance(MINUTE);
      expect((await complete(app, redeemId)).statusCode).toBe(200);

      const view = (await get(app, `/api/redeems/${other}`)).json();
      expect(view).toMatchObject({ status: 'superseded', completedAt: null, voucherCode: null, emailHint: null });
      expect(view.gift.status).toBe('redeemed');
      const response = await complete(app, other!, 'jane@example.com');
      expect(response.statusCode).toBe(409);
      expect(response.json()).toStrictEqual(error(409, 'Conflict', 'This gift has already been redeemed.'));
      // A session that had already expired stays expired.
      expect((await get(app, `/api/redeems/${expiredOne}`)).json().status).toBe('expired');
    });

    it('answers an unknown session with 404', async () => {
      const { app } = await harness.start();
      const response = await complete(app, UNKNOWN_ID);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toStrictEqual(notFound);
    });

    it.each([
      [{ email: 'not-an-email', acceptTerms: true }, 'Enter an email address like name@example.com.'],
      [{ email: '   ', acceptTerms: true }, 'Enter your email address.'],
      [{ email: `${'a'.repeat(250)}@example.com`, acceptTerms: true }, 'An email address has at most 254 characters.'],
      [{ email: 'jane@example.com', acceptTerms: false }, 'Accept the terms to redeem this gift.'],
      [
        { email: 'jane@example.com' },
        'Invalid request body: acceptTerms: Invalid input: expected boolean, received undefined',
      ],
      [
        { email: 42, acceptTerms: true },
        'Invalid request body: email: Invalid input: expected string, received number',
      ],
      [
        { email: 'jane@example.com', acceptTerms: 'yes' },
        'Invalid request body: acceptTerms: Invalid input: expected boolean, received string',
      ],
      [
        { email: 'jane@example.com', acceptTerms: true, voucherCode: 'X' },
        'Invalid request body: Unrecognized key: "voucherCode"',
      ],
      [
        {},
        'Invalid request body: email: Invalid input: expected string, received undefined; acceptTerms: Invalid input: expected boolean, received undefined',
      ],
      [[], 'Invalid request body: Invalid input: expected object, received array'],
    ])('refuses %j with 400 and changes nothing', async (body, message) => {
      const { app, redeemId } = await openSession();
      const response = await post(app, `/api/redeems/${redeemId}/complete`, body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toStrictEqual(error(400, 'Bad Request', message));
      expect((await get(app, `/api/redeems/${redeemId}`)).json().status).toBe('open');
    });

    it('refuses a request without a body with 400', async () => {
      const { app, redeemId } = await openSession();
      const response = await app.inject({ method: 'POST', url: `/api/redeems/${redeemId}/complete` });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toStrictEqual(
        error(400, 'Bad Request', 'Send the request body as JSON (Content-Type: application/json).'),
      );
    });

    it('refuses attempts past REDEEM_ATTEMPTS_PER_IP_PER_MINUTE with 429 and Retry-After, whatever their outcome', async () => {
      const { app, clock, redeemId, cookie } = await openSession({ limits: { redeemAttemptsPerIpPerMinute: 3 } });
      clock.set('2030-03-15T10:00:45.000Z');
      expect((await complete(app, UNKNOWN_ID)).statusCode).toBe(404);
      // Invalid input is refused before it is counted.
      expect((await post(app, `/api/redeems/${redeemId}/complete`, { email: 'x', acceptTerms: true })).statusCode).toBe(
        400,
      );
      expect((await complete(app, redeemId, 'jane@example.com', { cookie })).statusCode).toBe(200);
      expect((await complete(app, redeemId, 'jane@example.com', { cookie })).statusCode).toBe(200);
      const refused = await complete(app, redeemId, 'jane@example.com', { cookie });
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe('15');
      expect(refused.json()).toStrictEqual(
        error(429, 'Too Many Requests', 'Too many redeem attempts. Wait a minute and try again.'),
      );
      expect((await complete(app, redeemId, 'jane@example.com', { ip: '192.0.2.50', cookie })).statusCode).toBe(200);
      clock.advance(15_000);
      expect((await complete(app, redeemId, 'jane@example.com', { cookie })).statusCode).toBe(200);
    });
  });
  describe('who sees the voucher', () => {
    const hidden = { voucherCode: null, emailHint: null };

    it('shows the voucher to the visitor who opened and completed the session, also after a reload', async () => {
      const { app, redeemId, cookie } = await openSession();
      const { voucherCode, redeemedAt } = (await complete(app, redeemId, 'jane@example.com', { cookie })).json();
      // A reload: the same browser, so the same cookie, asks again.
      const view = (await get(app, `/api/redeems/${redeemId}`, { cookie })).json();
      expect(view).toMatchObject({
        status: 'completed',
        completedAt: redeemedAt,
        voucherCode,
        emailHint: 'j•••@example.com',
      });
    });

    it('hides it from anyone else holding the session id: the status stays truthful', async () => {
      const { app, redeemId, cookie } = await openSession();
      const { redeemedAt } = (await complete(app, redeemId, 'jane@example.com', { cookie })).json();
      for (const options of [{}, { cookie: newVisitor() }, { cookie: 'p_visitor=not-an-id' }]) {
        const response = await get(app, `/api/redeems/${redeemId}`, options);
        expect(response.statusCode).toBe(200);
        expect(response.json()).toMatchObject({ status: 'completed', completedAt: redeemedAt, ...hidden });
        expect(response.json().gift.status).toBe('redeemed');
        // Reading sets no cookie.
        expect(response.headers['set-cookie']).toBeUndefined();
      }
    });

    it('gives a second visitor with the gift link their own session; once the first redeems, theirs is superseded and shows no voucher', async () => {
      const { app, giftId, redeemId, cookie } = await openSession();
      const stranger = newVisitor();
      const theirs = await openRedeem(app, giftId, { cookie: stranger });
      expect(theirs).not.toBe(redeemId);
      // The stranger waits for the owner to redeem, then polls both sessions.
      const { voucherCode } = (await complete(app, redeemId, 'jane@example.com', { cookie })).json();
      const own = (await get(app, `/api/redeems/${theirs}`, { cookie: stranger })).json();
      expect(own).toMatchObject({ status: 'superseded', completedAt: null, ...hidden });
      const owners = await get(app, `/api/redeems/${redeemId}`, { cookie: stranger });
      expect(owners.json()).toMatchObject({ status: 'completed', ...hidden });
      expect(owners.body).not.toContain(voucherCode);
      expect((await post(app, `/api/gifts/${giftId}/redeems`, {}, { cookie: stranger })).statusCode).toBe(409);
    });

    it('does not answer a repeat completion from another visitor with the voucher, even with the right email', async () => {
      const { app, redeemId, cookie } = await openSession();
      const { voucherCode } = (await complete(app, redeemId, 'jane@example.com', { cookie })).json();
      const response = await complete(app, redeemId, 'jane@example.com', { cookie: newVisitor() });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toStrictEqual(error(409, 'Conflict', 'This gift has already been redeemed.'));
      expect(response.body).not.toContain(voucherCode);
      expect((await complete(app, redeemId, 'jane@example.com', { cookie })).json().voucherCode).toBe(voucherCode);
    });

    it('lets another browser with the session link complete it; it and the opener then see the voucher', async () => {
      const { app, redeemId, cookie } = await openSession();
      // No cookie yet (say, a phone): completing sets one.
      const done = await complete(app, redeemId, 'jane@example.com');
      expect(done.statusCode).toBe(200);
      const phone = visitorCookie(done);
      const { voucherCode } = done.json();
      expect((await get(app, `/api/redeems/${redeemId}`, { cookie: phone })).json().voucherCode).toBe(voucherCode);
      expect((await get(app, `/api/redeems/${redeemId}`, { cookie })).json().voucherCode).toBe(voucherCode);
      expect((await complete(app, redeemId, 'jane@example.com', { cookie: phone })).json().voucherCode).toBe(
        voucherCode,
      );
      expect((await get(app, `/api/redeems/${redeemId}`, { cookie: newVisitor() })).json().voucherCode).toBeNull();
    });
  });
});
