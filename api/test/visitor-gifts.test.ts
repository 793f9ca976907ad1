/** GET /api/visitor/gifts: the gifts this browser won or redeemed, newest first, with status. */
import { ID_PATTERN } from 'shared/ids';
import { harnessFor } from './support/harness';
import { complete, get, newVisitor, openRedeem, play, visitorCookie, winGift } from './support/test-app';
import { DAY, MINUTE } from './support/test-clock';
import { type Driver, PRIZES } from './support/test-db';

const drivers: Driver[] = ['pglite', 'postgres'];

describe.each(drivers)('GET /api/visitor/gifts on %s', (driver) => {
  const harness = harnessFor(driver);
  const listOf = async (app: Parameters<typeof get>[0], cookie: string) => {
    const response = await get(app, '/api/visitor/gifts', { cookie });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    return response.json<{ gifts: { giftId: string; status: string; redeemId: string | null }[] }>().gifts;
  };

  it("lists the visitor's wins newest first, as the gift page shows them, and nobody else's", async () => {
    const { app, clock } = await harness.start({ gameWinRate: 1 }, { prizes: [PRIZES[1]!] });
    const me = newVisitor();
    const first = await winGift(app, { cookie: me });
    clock.advance(MINUTE);
    const second = await winGift(app, { cookie: me });
    await winGift(app, { cookie: newVisitor() });

    const gifts = await listOf(app, me);
    expect(gifts.map((gift) => gift.giftId)).toEqual([second, first]);
    const shown = (await get(app, `/api/gifts/${first}`)).json();
    expect(gifts[1]).toStrictEqual({ ...shown, redeemId: null });
  });

  it('gives each gift its status now: expired past its expiry, redeemed with the session that shows the voucher', async () => {
    const { app, clock } = await harness.start({ gameWinRate: 1 }, { prizes: [PRIZES[1]!] });
    const me = newVisitor();
    const kept = await winGift(app, { cookie: me });
    const redeemed = await winGift(app, { cookie: me });
    const redeemId = await openRedeem(app, redeemed, { cookie: me });
    expect((await complete(app, redeemId, 'jane@example.com', { cookie: me })).statusCode).toBe(200);

    const byId = Object.fromEntries((await listOf(app, me)).map((gift) => [gift.giftId, gift]));
    expect(byId[redeemed]).toMatchObject({ status: 'redeemed', redeemId });
    expect(byId[kept]).toMatchObject({ status: 'available', redeemId: null });
    clock.advance(31 * DAY);
    expect((await listOf(app, me)).find((gift) => gift.giftId === kept)?.status).toBe('expired');
  });

  it('lists a gift this browser redeemed from a link it was given, but not one another browser redeemed', async () => {
    const { app } = await harness.start({ gameWinRate: 1 }, { prizes: [PRIZES[1]!] });
    const winner = newVisitor();
    const friend = newVisitor();
    const giftId = await winGift(app, { cookie: winner });
    const redeemId = await openRedeem(app, giftId, { cookie: friend });
    expect((await complete(app, redeemId, 'friend@example.com', { cookie: friend })).statusCode).toBe(200);

    expect(await listOf(app, friend)).toEqual([expect.objectContaining({ giftId, status: 'redeemed', redeemId })]);
    // The winner still sees the gift, redeemed, without the friend's voucher session.
    expect(await listOf(app, winner)).toEqual([
      expect.objectContaining({ giftId, status: 'redeemed', redeemId: null }),
    ]);
  });

  it('sets the visitor cookie when there is none, so the first play already belongs to this browser', async () => {
    const { app } = await harness.start({ gameWinRate: 1 }, { prizes: [PRIZES[1]!] });
    const response = await get(app, '/api/visitor/gifts');
    expect(response.json()).toStrictEqual({ gifts: [] });
    const cookie = visitorCookie(response);
    expect(cookie).toMatch(new RegExp(`^p_visitor=${ID_PATTERN.source.replace(/^\^|\$$/g, '')}\\.[A-Za-z0-9_-]{32}$`));
    const played = await play(app, { cookie });
    expect(played.headers['set-cookie']).toBeUndefined();
    expect((await listOf(app, cookie)).map((gift) => gift.giftId)).toEqual([played.json().gift.giftId]);
  });
});
