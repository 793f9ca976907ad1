/**
 * No state change from another site: a page elsewhere can make a visitor's browser send a POST
 * (without a preflight when it has no body, or a text/plain or form body), and the browser adds
 * the visitor's cookie. Refused requests change nothing in the database.
 */
import { type LightMyRequestResponse } from 'fastify';
import { type App } from '../src/app-context';
import { type Database } from '../src/db/database';
import { harnessFor } from './support/harness';
import { newVisitor, openRedeem, winGift } from './support/test-app';

const harness = harnessFor('postgres');
const HOST = 'http://localhost:3000';
const EVIL = 'https://evil.example';
let app: App;
let db: Database;

beforeEach(async () => {
  ({ app, db } = await harness.start({ corsOrigins: ['http://localhost:4301'] }));
});

/** Everything a refused request could have changed. */
async function state(): Promise<unknown> {
  const [counts] = await db.query(
    `SELECT (SELECT count(*)::int FROM rate_counters) AS counters, (SELECT coalesce(sum(hits), 0)::int FROM rate_counters) AS hits,
            (SELECT count(*)::int FROM gifts) AS gifts, (SELECT sum(stock)::int FROM prizes) AS stock,
            (SELECT count(*)::int FROM redeem_sessions) AS sessions,
            (SELECT count(*)::int FROM redeem_sessions WHERE status = 'completed') AS completed`,
  );
  return counts;
}

const raw = (url: string, headers: Record<string, string>, payload?: string): Promise<LightMyRequestResponse> =>
  app.inject({
    method: 'POST',
    url,
    headers: { cookie: newVisitor(), ...headers },
    ...(payload === undefined ? {} : { payload }),
  });

const errorBody = (statusCode: number, message: string) => ({
  statusCode,
  statusMessage: statusCode === 403 ? 'Forbidden' : 'Bad Request',
  message,
});

describe('state-changing requests from another site', () => {
  it('refuses a bodyless play from another origin (no preflight needed) with 403, spending nothing', async () => {
    const before = await state();
    const response = await raw('/api/game/plays', { origin: EVIL });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual(errorBody(403, 'Requests from other sites are not accepted.'));
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    expect(await state()).toEqual(before);
  });

  it.each([
    ['a JSON play from another origin', { origin: EVIL, 'content-type': 'application/json' }],
    ['a form play from another origin', { origin: EVIL, 'content-type': 'application/x-www-form-urlencoded' }],
    ['a play the browser marks cross-site', { 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' }],
    [
      'a cross-site play claiming an allowed origin',
      { origin: HOST, 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' },
    ],
    ['a play from an opaque origin (sandboxed frame, file)', { origin: 'null', 'content-type': 'application/json' }],
  ])('refuses %s with 403, spending nothing', async (_, headers) => {
    const before = await state();
    const response = await raw('/api/game/plays', headers, '{}');
    expect(response.statusCode).toBe(403);
    expect(await state()).toEqual(before);
  });

  it('refuses opening and completing a redeem session from another site, changing nothing', async () => {
    const giftId = await winGift(app);
    const cookie = newVisitor();
    const redeemId = await openRedeem(app, giftId, { cookie });
    const before = await state();
    const opened = await raw(
      `/api/gifts/${giftId}/redeems`,
      { origin: EVIL, 'content-type': 'application/json' },
      '{}',
    );
    const completed = await raw(
      `/api/redeems/${redeemId}/complete`,
      { origin: EVIL, 'content-type': 'application/json', cookie },
      JSON.stringify({ email: 'jane@example.com', acceptTerms: true }),
    );
    expect([opened.statusCode, completed.statusCode]).toEqual([403, 403]);
    expect(await state()).toEqual(before);
  });
});

describe('state-changing requests must be JSON', () => {
  it.each([
    ['no body and no Content-Type', {}, undefined],
    ['a text/plain body', { 'content-type': 'text/plain' }, '{}'],
    ['a form body', { 'content-type': 'application/x-www-form-urlencoded' }, 'a=1'],
  ])('refuses %s with 400, even from the host, spending nothing', async (_, headers, payload) => {
    const before = await state();
    const response = await raw('/api/game/plays', { origin: HOST, ...headers }, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(errorBody(400, 'Send the request body as JSON (Content-Type: application/json).'));
    expect(response.headers['access-control-allow-origin']).toBe(HOST);
    expect(await state()).toEqual(before);
  });
});

describe('requests the guard lets through', () => {
  it.each([
    ['the host, same-site', { origin: HOST, 'sec-fetch-site': 'same-site' }],
    ['the host, same-origin', { origin: HOST, 'sec-fetch-site': 'same-origin' }],
    ['an extra CORS origin', { origin: 'http://localhost:4301' }],
    ['a client that is not a browser (no Origin)', {}],
  ])('accepts a JSON play from %s', async (_, headers) => {
    const response = await raw(
      '/api/game/plays',
      { 'content-type': 'application/json; charset=utf-8', ...headers },
      '{}',
    );
    expect(response.statusCode).toBe(200);
  });

  it('lets reads through from anywhere: GET changes nothing', async () => {
    const giftId = await winGift(app);
    const response = await app.inject({
      method: 'GET',
      url: `/api/gifts/${giftId}`,
      headers: { origin: EVIL, 'sec-fetch-site': 'cross-site' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('still answers the host’s preflight', async () => {
    const response = await app.inject({
      method: 'OPTIONS',
      url: '/api/game/plays',
      headers: {
        origin: HOST,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(response.statusCode).toBe(204);
  });
});
