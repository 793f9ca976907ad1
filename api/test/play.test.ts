/** POST /api/game/plays: outcomes, stock, the visitor cookie and the daily limits. */
import { ID_PATTERN } from 'shared/ids';
import { harnessFor } from './support/harness';
import { prunePlays } from '../src/features/game/play';
import { DEFAULT_IP, get, newVisitor, play, visitorCookie, visitorWithId } from './support/test-app';
import { DAY } from './support/test-clock';
import { type Driver, PRIZES } from './support/test-db';

const drivers: Driver[] = ['pglite', 'postgres'];

/** Plays come back at the next UTC midnight after the test clock's start. */
const RESET_AT = '2030-03-16T00:00:00.000Z';
const keyed = (key: string, cookie?: string) => ({ cookie, headers: { 'idempotency-key': key } });
const KEY = 'k3y-0f-a-play-0001';

describe.each(drivers)('POST /api/game/plays on %s', (driver) => {
  const harness = harnessFor(driver);

  const stockOf = async (prizeId: string) => {
    const [row] = await harness.db.query<{ stock: number }>('SELECT stock FROM prizes WHERE id = $1', [prizeId]);
    return row?.stock;
  };

  describe('outcomes', () => {
    it('wins a gift with the contract shape, valid for 30 days, and takes one unit of stock', async () => {
      const { app, clock } = await harness.start({ gameWinRate: 1 }, { prizes: [PRIZES[1]!] });
      const response = await play(app);
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body).toStrictEqual({
        outcome: 'win',
        playsRemaining: 4,
        playsResetAt: RESET_AT,
        gift: {
          giftId: expect.stringMatching(ID_PATTERN),
          prize: {
            id: 'gift-card',
            name: '10 EUR gift card',
            description: 'A gift card.',
            value: { amount: 10, currency: 'EUR' },
            icon: 'mdi:gift',
          },
          status: 'available',
          createdAt: clock.now().toISOString(),
          expiresAt: new Date(clock.now().getTime() + 30 * DAY).toISOString(),
          redeemedAt: null,
        },
      });
      expect(await stockOf('gift-card')).toBe(99);
      const stored = await get(app, `/api/gifts/${body.gift.giftId}`);
      expect(stored.json()).toStrictEqual(body.gift);
    });

    it('loses every play at GAME_WIN_RATE=0, with stock left', async () => {
      const { app } = await harness.start({ gameWinRate: 0 });
      for (const remaining of [4, 3, 2]) {
        const response = await play(app, { cookie: visitorWithId('AAAAAAAAAAAAAAAAAAAAAAAA') });
        expect(response.json()).toStrictEqual({
          outcome: 'lose',
          playsRemaining: remaining,
          playsResetAt: RESET_AT,
          soldOut: false,
        });
      }
      expect(await stockOf('coffee')).toBe(100);
    });

    it('wins a prize in proportion to its weight, only among prizes with stock', async () => {
      const { app } = await harness.start(
        { gameWinRate: 1 },
        {
          prizes: [
            { ...PRIZES[0]!, stock: 0, weight: 1000 },
            { ...PRIZES[1]!, stock: 3 },
          ],
        },
      );
      const prizes = [];
      for (let i = 0; i < 3; i += 1) prizes.push((await play(app, { ip: `192.0.2.${i}` })).json().gift.prize.id);
      expect(prizes).toEqual(['gift-card', 'gift-card', 'gift-card']);
    });

    it('says soldOut once no prize has stock, and nobody wins', async () => {
      const { app } = await harness.start(
        { gameWinRate: 1 },
        {
          prizes: [
            { ...PRIZES[0]!, stock: 1 },
            { ...PRIZES[1]!, stock: 0 },
          ],
        },
      );
      const cookie = visitorWithId('AAAAAAAAAAAAAAAAAAAAAAAA');
      expect((await play(app, { cookie })).json().outcome).toBe('win');
      expect((await play(app, { cookie })).json()).toStrictEqual({
        outcome: 'lose',
        playsRemaining: 3,
        playsResetAt: RESET_AT,
        soldOut: true,
      });
      expect((await play(app, { cookie })).json()).toStrictEqual({
        outcome: 'lose',
        playsRemaining: 2,
        playsResetAt: RESET_AT,
        soldOut: true,
      });
      expect(await stockOf('coffee')).toBe(0);
      const [gifts] = await harness.db.query<{ count: number }>('SELECT count(*)::int AS count FROM gifts');
      expect(gifts?.count).toBe(1);
    });

    it('says soldOut on a losing roll too', async () => {
      const { app } = await harness.start({ gameWinRate: 0 }, { prizes: [{ ...PRIZES[0]!, stock: 0 }] });
      expect((await play(app)).json()).toStrictEqual({
        outcome: 'lose',
        playsRemaining: 4,
        playsResetAt: RESET_AT,
        soldOut: true,
      });
    });

    it('refuses a play with no body at all: a bodyless POST needs no CORS preflight', async () => {
      const { app } = await harness.start();
      const response = await app.inject({ method: 'POST', url: '/api/game/plays' });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('Send the request body as JSON (Content-Type: application/json).');
    });
  });

  describe('the visitor cookie', () => {
    it('is set on the first play: HttpOnly, SameSite=Lax, one year, not Secure over http', async () => {
      const { app } = await harness.start();
      const response = await play(app);
      const header = String(response.headers['set-cookie']);
      expect(header).toMatch(
        /^p_visitor=[A-Za-z0-9_-]{24}\.[A-Za-z0-9_-]{32}; Max-Age=31536000; Path=\/; HttpOnly; SameSite=Lax$/,
      );
    });

    it('is Secure when the request came over https through a trusted proxy', async () => {
      const { app } = await harness.start({ trustProxy: [DEFAULT_IP] });
      const response = await play(app, { headers: { 'x-forwarded-proto': 'https' } });
      expect(String(response.headers['set-cookie'])).toMatch(/; Secure/);
      const spoofed = await play(app, { ip: '192.0.2.50', headers: { 'x-forwarded-proto': 'https' } });
      expect(String(spoofed.headers['set-cookie'])).not.toMatch(/; Secure/);
    });

    it('is reused: no new cookie, and the plays count down for that visitor', async () => {
      const { app } = await harness.start({ gameWinRate: 0 });
      const first = await play(app);
      const cookie = visitorCookie(first);
      const second = await play(app, { cookie });
      expect(second.headers['set-cookie']).toBeUndefined();
      expect(second.json().playsRemaining).toBe(3);
      const stranger = await play(app, { ip: '192.0.2.99' });
      expect(stranger.json().playsRemaining).toBe(4);
    });

    it('is replaced when malformed', async () => {
      const { app } = await harness.start();
      const response = await play(app, { cookie: 'p_visitor=../../etc' });
      expect(String(response.headers['set-cookie'])).toMatch(/^p_visitor=[A-Za-z0-9_-]{24}\.[A-Za-z0-9_-]{32};/);
    });
  });

  describe('daily limits', () => {
    it('refuses a visitor past PLAYS_PER_VISITOR_PER_DAY with 429 and Retry-After until midnight UTC', async () => {
      const { app, clock } = await harness.start({ gameWinRate: 0, limits: { playsPerVisitorPerDay: 3 } });
      clock.set('2030-03-15T22:00:00.000Z');
      const cookie = visitorCookie(await play(app));
      expect((await play(app, { cookie })).json().playsRemaining).toBe(1);
      expect((await play(app, { cookie })).json().playsRemaining).toBe(0);
      const refused = await play(app, { cookie });
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe(String(2 * 60 * 60));
      expect(refused.json()).toStrictEqual({
        statusCode: 429,
        statusMessage: 'Too Many Requests',
        message: "You have used all of today's plays. Come back tomorrow for more plays.",
      });
      clock.set('2030-03-16T00:00:01.000Z');
      expect((await play(app, { cookie })).json().playsRemaining).toBe(2);
    });

    it('refuses an address past PLAYS_PER_IP_PER_DAY, whatever the cookie', async () => {
      const { app } = await harness.start({
        gameWinRate: 0,
        limits: { playsPerVisitorPerDay: 5, playsPerIpPerDay: 2 },
      });
      expect((await play(app)).json().playsRemaining).toBe(1);
      expect((await play(app)).json().playsRemaining).toBe(0);
      const refused = await play(app);
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe(String(14 * 60 * 60));
      expect(refused.json().message).toBe('Too many plays from your network today. Come back tomorrow for more plays.');
      expect((await play(app, { ip: '192.0.2.1' })).statusCode).toBe(200);
    });

    it('answers playsRemaining as the smaller of what the visitor and the address have left', async () => {
      const { app } = await harness.start({
        gameWinRate: 0,
        limits: { playsPerVisitorPerDay: 3, playsPerIpPerDay: 10 },
      });
      const cookie = visitorCookie(await play(app));
      await play(app, { cookie });
      await play(app, { cookie });
      // The refused play is not counted against the address either.
      expect((await play(app, { cookie })).statusCode).toBe(429);
      expect((await play(app)).json().playsRemaining).toBe(2);
      const tight = await harness.start({ gameWinRate: 0, limits: { playsPerVisitorPerDay: 5, playsPerIpPerDay: 2 } });
      expect((await play(tight.app)).json().playsRemaining).toBe(1);
    });

    it('ignores X-Forwarded-For unless TRUST_PROXY is set', async () => {
      const direct = await harness.start({ gameWinRate: 0, limits: { playsPerIpPerDay: 1 } });
      expect((await play(direct.app, { headers: { 'x-forwarded-for': '203.0.113.1' } })).statusCode).toBe(200);
      expect((await play(direct.app, { headers: { 'x-forwarded-for': '203.0.113.2' } })).statusCode).toBe(429);

      const proxied = await harness.start({
        gameWinRate: 0,
        trustProxy: ['198.51.100.0/24'],
        limits: { playsPerIpPerDay: 1 },
      });
      expect((await play(proxied.app, { headers: { 'x-forwarded-for': '203.0.113.1' } })).statusCode).toBe(200);
      expect((await play(proxied.app, { headers: { 'x-forwarded-for': '203.0.113.2' } })).statusCode).toBe(200);
      expect((await play(proxied.app, { headers: { 'x-forwarded-for': '203.0.113.1' } })).statusCode).toBe(429);
    });

    it('believes X-Forwarded-For only from the proxies TRUST_PROXY names: other clients cannot choose their address', async () => {
      const { app } = await harness.start({
        gameWinRate: 0,
        trustProxy: ['10.0.0.0/8'],
        limits: { playsPerIpPerDay: 1 },
      });
      const direct = { ip: '192.0.2.60' };
      expect((await play(app, { ...direct, headers: { 'x-forwarded-for': '203.0.113.1' } })).statusCode).toBe(200);
      // A client that is not a named proxy, forging a fresh address on every play, is still one address.
      expect((await play(app, { ...direct, headers: { 'x-forwarded-for': '203.0.113.2' } })).statusCode).toBe(429);
      expect((await play(app, { ...direct, headers: { 'x-forwarded-for': '203.0.113.3, 10.0.0.9' } })).statusCode).toBe(
        429,
      );
      // Through the proxy, the client it names is counted, not the proxy.
      expect((await play(app, { ip: '10.1.2.3', headers: { 'x-forwarded-for': '203.0.113.4' } })).statusCode).toBe(200);
      expect((await play(app, { ip: '10.1.2.3', headers: { 'x-forwarded-for': '192.0.2.60' } })).statusCode).toBe(429);
    });

    it('counts an IPv6 client by its /64', async () => {
      const { app } = await harness.start({ gameWinRate: 0, limits: { playsPerIpPerDay: 1 } });
      expect((await play(app, { ip: '2001:db8:1:2::1' })).statusCode).toBe(200);
      expect((await play(app, { ip: '2001:db8:1:2:ffff::9' })).statusCode).toBe(429);
      expect((await play(app, { ip: '2001:db8:1:3::1' })).statusCode).toBe(200);
    });
  });

  describe('an idempotency key', () => {
    const countOf = async (table: 'gifts' | 'plays') => {
      const [row] = await harness.db.query<{ count: number }>(`SELECT count(*)::int AS count FROM ${table}`);
      return row?.count;
    };

    it('gives a repeated play the first answer, and spends no second play and no stock', async () => {
      const { app } = await harness.start({ gameWinRate: 1 }, { prizes: [PRIZES[1]!] });
      const cookie = newVisitor();
      const first = await play(app, keyed(KEY, cookie));
      const again = await play(app, keyed(KEY, cookie));
      expect(first.statusCode).toBe(200);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toStrictEqual(first.json());
      expect(first.json().playsRemaining).toBe(4);
      expect(await stockOf('gift-card')).toBe(99);
      expect(await countOf('gifts')).toBe(1);
      // The next play, with a new key, is the visitor's second.
      expect((await play(app, keyed('k3y-0f-a-play-0002', cookie))).json().playsRemaining).toBe(3);
    });

    it('answers concurrent repeats of one play once: one gift, one play counted', async () => {
      const { app } = await harness.start({ gameWinRate: 1 }, { prizes: [PRIZES[1]!] });
      const cookie = newVisitor();
      const answers = await Promise.all(Array.from({ length: 8 }, () => play(app, keyed(KEY, cookie))));
      const bodies = answers.map((answer) => answer.body);
      expect(new Set(bodies).size).toBe(1);
      expect(answers[0]?.json().playsRemaining).toBe(4);
      expect(await stockOf('gift-card')).toBe(99);
      expect(await countOf('gifts')).toBe(1);
    });

    it('belongs to its visitor: another visitor with the same key plays their own play', async () => {
      const { app } = await harness.start({ gameWinRate: 1 }, { prizes: [PRIZES[1]!] });
      const mine = (await play(app, keyed(KEY, newVisitor()))).json();
      const theirs = (await play(app, keyed(KEY, newVisitor()))).json();
      expect(theirs.gift.giftId).not.toBe(mine.gift.giftId);
      expect(await stockOf('gift-card')).toBe(98);
    });

    it('changes nothing when the play is refused: the same key plays once the limit allows', async () => {
      const { app, clock } = await harness.start({ gameWinRate: 0, limits: { playsPerVisitorPerDay: 1 } });
      const cookie = newVisitor();
      expect((await play(app, keyed('k3y-0f-a-play-0001', cookie))).statusCode).toBe(200);
      expect((await play(app, keyed('k3y-0f-a-play-0002', cookie))).statusCode).toBe(429);
      expect(await countOf('plays')).toBe(1);
      clock.advance(DAY);
      expect((await play(app, keyed('k3y-0f-a-play-0002', cookie))).statusCode).toBe(200);
    });

    it.each(['short', 'has spaces in it here', 'x'.repeat(65), 'bad!key/with+symbols'])(
      'refuses a malformed key (%s) with 400, and counts nothing',
      async (key) => {
        const { app } = await harness.start({ gameWinRate: 1 });
        const response = await play(app, keyed(key, newVisitor()));
        expect(response.statusCode).toBe(400);
        expect(response.json().message).toMatch(/Idempotency-Key/);
        expect(await countOf('gifts')).toBe(0);
        expect(await countOf('plays')).toBe(0);
      },
    );

    it('is forgotten after two days: pruning drops old answers only', async () => {
      const { app, clock } = await harness.start({ gameWinRate: 0 });
      await play(app, keyed('k3y-0f-a-play-0001', newVisitor()));
      clock.advance(3 * DAY);
      await play(app, keyed('k3y-0f-a-play-0002', newVisitor()));
      await prunePlays(harness.db, new Date(clock.now().getTime() - 2 * DAY));
      const rows = await harness.db.query<{ idempotency_key: string }>('SELECT idempotency_key FROM plays');
      expect(rows.map((row) => row.idempotency_key)).toEqual(['k3y-0f-a-play-0002']);
    });
  });
});
