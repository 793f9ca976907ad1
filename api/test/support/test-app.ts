/** Request helpers over `inject`, and the shortcuts most tests take: win a gift, open a session. */
import { type LightMyRequestResponse } from 'fastify';
import { type App } from '../../src/app-context';
import { newId } from '../../src/codes';
import { type Queryable } from '../../src/db/database';
import { developmentVisitorCookie, signVisitorId } from '../../src/http/visitor';
import { addMinutes } from '../../src/time';
import { TEST_VISITOR_SECRET } from './test-config';

export interface RequestOptions {
  ip?: string;
  cookie?: string;
  headers?: Record<string, string>;
}

export const DEFAULT_IP = '198.51.100.7';

export function post(
  app: App,
  url: string,
  body: unknown = {},
  options: RequestOptions = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url,
    payload: body === undefined ? undefined : JSON.stringify(body),
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...options.headers,
    },
    remoteAddress: options.ip ?? DEFAULT_IP,
  });
}

export function get(app: App, url: string, options: RequestOptions = {}): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'GET',
    url,
    headers: { ...(options.cookie ? { cookie: options.cookie } : {}), ...options.headers },
    remoteAddress: options.ip ?? DEFAULT_IP,
  });
}

export const play = (app: App, options: RequestOptions = {}) => post(app, '/api/game/plays', {}, options);

/** Wins a gift (the app must have gameWinRate 1) and returns its id. */
export async function winGift(app: App, options: RequestOptions = {}): Promise<string> {
  const response = await play(app, options);
  const body = response.json<{ outcome: string; gift?: { giftId: string } }>();
  if (body.outcome !== 'win' || !body.gift)
    throw new Error(`expected a win, got ${response.statusCode} ${response.body}`);
  return body.gift.giftId;
}

/** Opens (or finds) the visitor's session; without a cookie, every call is a new visitor. */
export async function openRedeem(app: App, giftId: string, options: RequestOptions = {}): Promise<string> {
  const response = await post(app, `/api/gifts/${giftId}/redeems`, {}, options);
  if (response.statusCode !== 201 && response.statusCode !== 200)
    throw new Error(`open redeem: ${response.statusCode} ${response.body}`);
  return response.json<{ redeemId: string }>().redeemId;
}

export const complete = (app: App, redeemId: string, email = 'jane@example.com', options: RequestOptions = {}) =>
  post(app, `/api/redeems/${redeemId}/complete`, { email, acceptTerms: true }, options);

/**
 * Open sessions straight in the database. The API keeps one open session per gift, so several
 * at once only arise from outside it (an older version, an operator): the database must still
 * let exactly one of them redeem the gift.
 */
export async function insertOpenSessions(
  db: Queryable,
  giftId: string,
  count: number,
  at: Date,
  ttlMinutes = 30,
): Promise<string[]> {
  const ids = Array.from({ length: count }, () => newId());
  for (const id of ids) {
    await db.query(
      `INSERT INTO redeem_sessions (id, gift_id, status, created_at, expires_at)
       VALUES ($1, $2, 'open', $3::timestamptz, $4::timestamptz)`,
      [id, giftId, at, addMinutes(at, ttlMinutes)],
    );
  }
  return ids;
}

/** A `p_visitor` Cookie header for visitor `id`, signed as the test apps sign it (testConfig's secret). */
export const visitorWithId = (id: string): string =>
  `p_visitor=${signVisitorId(id, developmentVisitorCookie([TEST_VISITOR_SECRET]))}`;

/** A `p_visitor` Cookie header for a new visitor, as if the test app had set it. */
export const newVisitor = (): string => visitorWithId(newId());

/** The `p_visitor=…` pair of a response's Set-Cookie, for the next request's Cookie header. */
export function visitorCookie(response: LightMyRequestResponse): string {
  const header = response.headers['set-cookie'];
  const value = (Array.isArray(header) ? header : [header]).find((cookie) => cookie?.startsWith('p_visitor='));
  if (!value) throw new Error('no p_visitor cookie was set');
  return value.split(';')[0] ?? '';
}
