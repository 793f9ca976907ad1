/**
 * The API's series as an operator reads them: durations by route pattern, the business counters
 * after real plays and redeems, database failures, and nothing personal in any label.
 */
import { type Registry } from 'prom-client';
import { type App } from '../src/app-context';
import { UNMATCHED_ROUTE } from '../src/metrics/http-metrics';
import { harnessFor } from './support/harness';
import { seriesOf, valueOf } from './support/metrics';
import { complete, get, newVisitor, openRedeem, play, post, visitorCookie, winGift } from './support/test-app';

const harness = harnessFor('pglite');
const DURATION = 'giftbox_http_request_duration_seconds';
let app: App;
let metrics: Registry;

beforeEach(async () => {
  ({ app, metrics } = await harness.start());
});

describe('request durations', () => {
  it('are labelled with the route pattern, method and status, never the path', async () => {
    const giftId = await winGift(app);
    await get(app, `/api/gifts/${giftId}`);
    await get(app, `/api/gifts/${giftId}`);
    await get(app, '/api/gifts/AAAAAAAAAAAAAAAAAAAAAAAA');

    expect(
      await valueOf(metrics, DURATION, { method: 'GET', route: '/api/gifts/:giftId', status: '200' }, '_count'),
    ).toBe(2);
    expect(
      await valueOf(metrics, DURATION, { method: 'GET', route: '/api/gifts/:giftId', status: '404' }, '_count'),
    ).toBe(1);
    expect(
      await valueOf(metrics, DURATION, { method: 'POST', route: '/api/game/plays', status: '200' }, '_count'),
    ).toBe(1);
    const labels = (await seriesOf(metrics, DURATION)).map((series) => series.labels);
    expect(labels.every((label) => label.part === 'api')).toBe(true);
    expect(JSON.stringify(labels)).not.toContain(giftId);
  });

  it('label a path no route matches "unmatched", whatever the path', async () => {
    await get(app, '/api/nothing/here/AbCdEfGhIjKlMnOpQrStUvWx');
    await get(app, '/metrics');

    expect(await valueOf(metrics, DURATION, { route: UNMATCHED_ROUTE, status: '404' }, '_count')).toBe(2);
    expect(JSON.stringify(await seriesOf(metrics, DURATION))).not.toContain('AbCdEfGh');
  });

  it('sum the time the answers took, in seconds', async () => {
    await get(app, '/api/health/live');
    const sum = await valueOf(metrics, DURATION, { route: '/api/health/live' }, '_sum');
    expect(sum).toBeGreaterThan(0);
    expect(sum).toBeLessThan(60);
  });
});

it('are not served on the API’s own port: GET /metrics there is a 404 like any unknown path', async () => {
  const response = await get(app, '/metrics');
  expect(response.statusCode).toBe(404);
  expect(response.body).not.toContain('giftbox_');
});

describe('business counters', () => {
  it('count plays by outcome, a repeat of a keyed play once', async () => {
    const lose = await harness.start({ gameWinRate: 0 });
    const cookie = newVisitor();
    const keyed = { cookie, headers: { 'idempotency-key': 'same-play-key-0001' } };
    expect((await play(lose.app, keyed)).statusCode).toBe(200);
    expect((await play(lose.app, keyed)).statusCode).toBe(200);
    await play(lose.app, { cookie });

    expect(await valueOf(lose.metrics, 'giftbox_plays_total', { outcome: 'lose' })).toBe(2);
    expect(await valueOf(lose.metrics, 'giftbox_plays_total', { outcome: 'win' })).toBe(0);
    await winGift(app);
    expect(await valueOf(metrics, 'giftbox_plays_total', { outcome: 'win' })).toBe(1);
  });

  it('count gifts read, redeems completed once, and conflicts by route', async () => {
    const first = await play(app);
    const cookie = visitorCookie(first);
    const giftId = first.json<{ gift: { giftId: string } }>().gift.giftId;
    await get(app, `/api/gifts/${giftId}`);
    await get(app, '/api/gifts/AAAAAAAAAAAAAAAAAAAAAAAA');
    const redeemId = await openRedeem(app, giftId, { cookie });
    expect((await complete(app, redeemId, 'jane@example.com', { cookie })).statusCode).toBe(200);
    // The same completion again answers the same voucher: no second redeem.
    expect((await complete(app, redeemId, 'jane@example.com', { cookie })).statusCode).toBe(200);
    // Another email on a completed session, and a new session on a redeemed gift: conflicts.
    expect((await complete(app, redeemId, 'john@example.com', { cookie })).statusCode).toBe(409);
    expect((await post(app, `/api/gifts/${giftId}/redeems`, {}, { cookie: newVisitor() })).statusCode).toBe(409);

    expect(await valueOf(metrics, 'giftbox_gifts_opened_total')).toBe(1);
    expect(await valueOf(metrics, 'giftbox_redeems_completed_total')).toBe(1);
    expect(await valueOf(metrics, 'giftbox_conflicts_total', { route: '/api/redeems/:redeemId/complete' })).toBe(1);
    expect(await valueOf(metrics, 'giftbox_conflicts_total', { route: '/api/gifts/:giftId/redeems' })).toBe(1);
  });
});

describe('database failures', () => {
  it('count a failed statement as "query" (its request answers 500), and no pool on PGlite', async () => {
    const giftId = await winGift(app);
    await harness.db.exec('ALTER TABLE redeem_sessions RENAME TO redeem_sessions_away');
    try {
      expect((await post(app, `/api/gifts/${giftId}/redeems`, {}, { cookie: newVisitor() })).statusCode).toBe(500);
    } finally {
      await harness.db.exec('ALTER TABLE redeem_sessions_away RENAME TO redeem_sessions');
    }
    expect(await valueOf(metrics, 'giftbox_db_errors_total', { kind: 'query' })).toBe(1);
    expect(await valueOf(metrics, 'giftbox_db_errors_total', { kind: 'unavailable' })).toBe(0);
    expect(await seriesOf(metrics, 'giftbox_db_pool_connections')).toEqual([]);
  });

  it('do not count what a transaction’s own code refuses (a 404, a 409)', async () => {
    await post(app, '/api/gifts/AAAAAAAAAAAAAAAAAAAAAAAA/redeems', {}, { cookie: newVisitor() });
    await complete(app, 'AAAAAAAAAAAAAAAAAAAAAAAA');
    expect(await valueOf(metrics, 'giftbox_db_errors_total')).toBe(0);
  });
});

it('hold no gift or redeem id, email, voucher code, cookie or address after a whole journey', async () => {
  const ip = '203.0.113.77';
  const first = await play(app, { ip });
  const cookie = visitorCookie(first);
  const giftId = first.json<{ gift: { giftId: string } }>().gift.giftId;
  await get(app, `/api/gifts/${giftId}`, { ip });
  const redeemId = await openRedeem(app, giftId, { cookie, ip });
  await get(app, `/api/redeems/${redeemId}`, { cookie, ip });
  const done = await complete(app, redeemId, 'secret.person@example.com', { cookie, ip });
  const { voucherCode } = done.json<{ voucherCode: string }>();
  await complete(app, redeemId, 'other.person@example.com', { cookie, ip });
  await get(app, `/api/visitor/gifts`, { cookie, ip });

  const text = await metrics.metrics();
  expect(text).toContain('giftbox_redeems_completed_total{part="api"} 1');
  for (const secret of [giftId, redeemId, voucherCode, 'secret.person', 'other.person', cookie.split('=')[1], ip])
    expect(text).not.toContain(secret);
});
