/**
 * Completions on two API processes sharing one PostgreSQL database, with deliberate duplicates,
 * then an exactly-once check against the database.
 *
 * For each gift, visitor A opens a session. Every third gift's session is completed twice (the
 * same visitor and email, once on each process); every fourth gift also gets a session of
 * visitor B, completed on the other process. A gift's completions are queued next to each other,
 * so they are in flight together. Expected: one completed session per gift, every 200 answer's
 * voucher is the stored one, a repeat gets the same voucher, the losing sessions get 409.
 */
import { performance } from 'node:perf_hooks';
import { jsonObject, objectField, send, stringField, visitorCookieOf } from './http';
import { type Attempt, readSessions, type Session, verify } from './exactly-once';
import { type Server } from './servers';

export interface CompletionOptions {
  gifts: number;
  concurrency: number;
}

export interface CompletionReport {
  gifts: number;
  playsPerSecond: number;
  opensPerSecond: number;
  requests: number;
  completionsPerSecond: number;
  statuses: Map<number, number>;
  /** Gifts with a second visitor's session, and how many of those that session won. */
  rivals: number;
  rivalWins: number;
  /** Empty when exactly-once held. */
  problems: string[];
}

/** The process for the n-th request: the two alternate. */
const processFor = (apis: readonly [Server, Server], n: number): Server => (n % 2 === 0 ? apis[0] : apis[1]);

/** Runs `work` over `items`, at most `concurrency` at a time, in order of start. */
async function inPool<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < items.length; index = next++)
      results[index] = await work(items[index] as T, index);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

async function timed<R>(work: () => Promise<R>): Promise<{ result: R; seconds: number }> {
  const start = performance.now();
  const result = await work();
  return { result, seconds: (performance.now() - start) / 1000 };
}

async function createGifts(apis: readonly [Server, Server], count: number, concurrency: number): Promise<string[]> {
  return inPool(
    Array.from({ length: count }, (_, index) => index),
    concurrency,
    async (index) => {
      // Without a cookie, each play is a new visitor's.
      const reply = await send(processFor(apis, index).baseUrl, '/api/game/plays', { method: 'POST', body: {} });
      const play = jsonObject(reply, 'POST /api/game/plays');
      if (reply.status !== 200 || play.outcome !== 'win')
        throw new Error(`a play did not win (${reply.status} ${reply.text.slice(0, 200)}); is GAME_WIN_RATE=1?`);
      return stringField(objectField(play, 'gift', 'play'), 'giftId', 'play');
    },
  );
}

async function openSession(api: Server, giftId: string, gift: number): Promise<Session> {
  // A new visitor: the session belongs to the cookie the API sets with it, signed by the API.
  const reply = await send(api.baseUrl, `/api/gifts/${giftId}/redeems`, { method: 'POST', body: {} });
  if (reply.status !== 201) throw new Error(`opening a session answered ${reply.status}: ${reply.text.slice(0, 200)}`);
  return {
    gift,
    redeemId: stringField(jsonObject(reply, 'open'), 'redeemId', 'open'),
    visitor: visitorCookieOf(reply, 'open'),
    email: `bench-${gift}@example.com`,
  };
}

async function complete(session: Session, api: Server): Promise<Attempt> {
  const reply = await send(api.baseUrl, `/api/redeems/${session.redeemId}/complete`, {
    method: 'POST',
    body: { email: session.email, acceptTerms: true },
    visitor: session.visitor,
  });
  if (reply.status !== 200) return { session, api, status: reply.status };
  const body = jsonObject(reply, 'complete');
  return {
    session,
    api,
    status: 200,
    voucherCode: stringField(body, 'voucherCode', 'complete'),
    redeemedAt: stringField(body, 'redeemedAt', 'complete'),
  };
}

export async function raceCompletions(
  apis: readonly [Server, Server],
  databaseUrl: string,
  options: CompletionOptions,
): Promise<CompletionReport> {
  const plays = await timed(() => createGifts(apis, options.gifts, options.concurrency));
  const giftIds = plays.result;

  const opens = await timed(async () => {
    const first = await inPool(giftIds, options.concurrency, (giftId, gift) =>
      openSession(processFor(apis, gift), giftId, gift),
    );
    const rivals = giftIds.map((giftId, gift) => ({ giftId, gift })).filter(({ gift }) => gift % 4 === 1);
    const second = await inPool(rivals, options.concurrency, ({ giftId, gift }) =>
      openSession(processFor(apis, gift + 1), giftId, gift),
    );
    return { first, second };
  });

  const rivalOf = new Map(opens.result.second.map((session) => [session.gift, session]));
  const groups = opens.result.first.map((session) => {
    const other = processFor(apis, session.gift + 1);
    const group: { session: Session; api: Server }[] = [{ session, api: processFor(apis, session.gift) }];
    if (session.gift % 3 === 0) group.push({ session, api: other });
    const rival = rivalOf.get(session.gift);
    if (rival) group.push({ session: rival, api: other });
    return shuffle(group);
  });
  const jobs = shuffle(groups).flat();
  const completions = await timed(() => inPool(jobs, options.concurrency, (job) => complete(job.session, job.api)));

  const statuses = new Map<number, number>();
  for (const attempt of completions.result) statuses.set(attempt.status, (statuses.get(attempt.status) ?? 0) + 1);
  const stored = await readSessions(databaseUrl, giftIds);
  const rivalIds = new Set(opens.result.second.map((session) => session.redeemId));
  return {
    gifts: giftIds.length,
    playsPerSecond: giftIds.length / plays.seconds,
    opensPerSecond: (opens.result.first.length + opens.result.second.length) / opens.seconds,
    requests: jobs.length,
    completionsPerSecond: jobs.length / completions.seconds,
    statuses,
    rivals: rivalIds.size,
    rivalWins: [...rivalIds].filter((id) => stored.sessions.get(id)?.status === 'completed').length,
    problems: verify(completions.result, stored, giftIds.length),
  };
}
