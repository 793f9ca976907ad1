/**
 * What the restore drill does through the API and reads back: visitors who win gifts, redeem some
 * (a voucher each), open a session on another and leave it open; then every answer about them.
 */

export interface Visitor {
  /** The `p_visitor` cookie the API set on the first play. */
  cookie: string;
  giftIds: string[];
  /** Sessions completed: their answers carry the voucher code, for this visitor. */
  completed: string[];
  /** A session opened and left open. */
  open: string[];
}

/** Each answer, by what was asked: `GET <path>` as a visitor. */
export type Visit = Record<string, unknown>;

const VISITORS = 3;
const GIFTS_EACH = 2;

async function call(baseUrl: string, method: 'GET' | 'POST', path: string, cookie?: string, body?: unknown) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(cookie ? { cookie } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json: unknown = await response.json();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(json)}`);
  const setCookie = response.headers.getSetCookie().find((value) => /p_visitor=/.test(value));
  return { json: json as Record<string, unknown>, cookie: setCookie?.split(';')[0] };
}

async function newVisitor(baseUrl: string, index: number): Promise<Visitor> {
  const first = await call(baseUrl, 'POST', '/api/game/plays', undefined, {});
  if (!first.cookie) throw new Error('The first play set no visitor cookie');
  const visitor: Visitor = { cookie: first.cookie, giftIds: [], completed: [], open: [] };
  const plays = [first.json];
  for (let play = 1; play < GIFTS_EACH; play++)
    plays.push((await call(baseUrl, 'POST', '/api/game/plays', visitor.cookie, {})).json);
  for (const { gift } of plays as { gift?: { giftId: string } }[]) {
    if (!gift) throw new Error('A play did not win: the drill runs the API with GAME_WIN_RATE=1');
    visitor.giftIds.push(gift.giftId);
  }
  const [redeemed, opened] = visitor.giftIds;
  const session = await call(baseUrl, 'POST', `/api/gifts/${redeemed}/redeems`, visitor.cookie, {});
  const redeemId = String(session.json.redeemId);
  const email = { email: `drill${index}@example.com`, acceptTerms: true };
  await call(baseUrl, 'POST', `/api/redeems/${redeemId}/complete`, visitor.cookie, email);
  visitor.completed.push(redeemId);
  if (index === 0 && opened) {
    const left = await call(baseUrl, 'POST', `/api/gifts/${opened}/redeems`, visitor.cookie, {});
    visitor.open.push(String(left.json.redeemId));
  }
  return visitor;
}

/** Visitors with gifts won, one voucher each, and one session left open. */
export async function playAndRedeem(baseUrl: string): Promise<Visitor[]> {
  const visitors: Visitor[] = [];
  for (let index = 0; index < VISITORS; index++) visitors.push(await newVisitor(baseUrl, index));
  return visitors;
}

/** Every visitor's list, gift and redeem session (with its voucher code, as its visitor sees it). */
export async function readEverything(baseUrl: string, visitors: Visitor[]): Promise<Visit> {
  const answers: Visit = {};
  for (const [index, visitor] of visitors.entries()) {
    const paths = [
      '/api/visitor/gifts',
      ...visitor.giftIds.map((id) => `/api/gifts/${id}`),
      ...[...visitor.completed, ...visitor.open].map((id) => `/api/redeems/${id}`),
    ];
    for (const path of paths)
      answers[`visitor ${index} GET ${path}`] = (await call(baseUrl, 'GET', path, visitor.cookie)).json;
    for (const id of visitor.completed) {
      const { voucherCode } = answers[`visitor ${index} GET /api/redeems/${id}`] as { voucherCode?: unknown };
      if (typeof voucherCode !== 'string') throw new Error(`Redeem session ${id} shows its visitor no voucher`);
    }
  }
  return answers;
}
