/**
 * The steady load of a chaos run: simulated visitors going through the API on the public origin
 * as the pages do (play, read the gift, open a redeem session, complete it, read the voucher),
 * each with a cookie jar of its own and an address of its own (X-Forwarded-For, which nginx
 * passes on and the API trusts from loopback), new ones arriving at a steady rate whatever those
 * before them are waiting for (a stalled process must not slow the arrivals down). A step that
 * fails is recorded with its time and tried again as a page would (the same Idempotency-Key for
 * a play, the same email for a completion), so faults cost time, not journeys; every answer the
 * API acknowledged (a win, a completion with its voucher code) is kept for the end's checks.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';

/** The header that makes a play repeatable (the API's contract; the suite imports no API source). */
const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

export type Step = 'play' | 'gift' | 'open' | 'complete' | 'voucher';

/** A request that did not get the answer a visitor needs: its time span, what it was, what came. */
export interface FailedRequest {
  startedAt: number;
  endedAt: number;
  step: Step;
  /** The HTTP status, or 0 when no answer came (refused, reset, timed out). */
  status: number;
  detail: string;
}

export interface Completion {
  giftId: string;
  redeemId: string;
  voucherCode: string;
  /** The completing visitor's cookies, to read the voucher again at the end. */
  cookie: string;
  forwardedFor: string;
}

export interface LoadRecords {
  requests: number;
  journeysStarted: number;
  journeysDone: number;
  /** Journeys given up after JOURNEY_LIMIT_MS of failures. */
  journeysAbandoned: number;
  /** The most journeys in flight at once. */
  mostInFlight: number;
  failures: FailedRequest[];
  /** Gifts whose play answered 200 with a win. */
  wins: Set<string>;
  completions: Completion[];
  /** A voucher read back that differed from the one the completion acknowledged. */
  voucherMismatches: string[];
  /** Answers that took longer than SLOW_MS (a visitor notices): when, and which step. */
  slow: { startedAt: number; endedAt: number; step: Step }[];
}

/** An answer slower than this is one a visitor notices. */
export const SLOW_MS = 2_000;

export interface LoadOptions {
  origin: string;
  /** New visitors a second, each starting a journey. */
  journeysPerSecond: number;
}

/** Journeys in flight at most; past it, arrivals wait (and the report says so). */
const MAX_IN_FLIGHT = 500;

/** How long one journey keeps trying before it is given up (and counted). */
const JOURNEY_LIMIT_MS = 90_000;
/** A request without an answer this long is a failure (nginx's own bounds are shorter). */
const REQUEST_TIMEOUT_MS = 40_000;
const RETRY_PAUSE_MS = 500;

/** A visitor's cookies: name=value pairs from each Set-Cookie, sent back on every request. */
class CookieJar {
  private readonly cookies = new Map<string, string>();

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  keep(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(';')[0] ?? '';
      const equals = pair.indexOf('=');
      if (equals > 0) this.cookies.set(pair.slice(0, equals).trim(), pair.slice(equals + 1).trim());
    }
  }
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

let visitorNumber = 0;

/** A fresh address for each visitor, from 10.0.0.0/8. */
function nextAddress(): string {
  visitorNumber++;
  return `10.${(visitorNumber >> 16) & 255}.${(visitorNumber >> 8) & 255}.${visitorNumber & 255}`;
}

class Visitor {
  readonly jar = new CookieJar();
  readonly address = nextAddress();
  readonly email = `chaos-${visitorNumber}@example.com`;

  constructor(
    private readonly options: LoadOptions,
    private readonly records: LoadRecords,
  ) {}

  /** One request; any answer is given back, a failure to get one is status 0. */
  async request(step: Step, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const startedAt = Date.now();
    this.records.requests++;
    const timed = <T>(answer: T) => {
      const endedAt = Date.now();
      if (endedAt - startedAt > SLOW_MS) this.records.slow.push({ startedAt, endedAt, step });
      return answer;
    };
    try {
      const response = await fetch(`${this.options.origin}${path}`, {
        method,
        headers: {
          accept: 'application/json',
          'x-forwarded-for': this.address,
          ...(this.jar.header() ? { cookie: this.jar.header() } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      this.jar.keep(response);
      const text = await response.text();
      let parsed: Record<string, unknown> = {};
      try {
        parsed = JSON.parse(text) as Record<string, unknown>;
      } catch {
        parsed = { text: text.slice(0, 200) };
      }
      return timed({ startedAt, answer: { status: response.status, body: parsed } as Answer });
    } catch (error) {
      return timed({ startedAt, answer: { status: 0, body: { error: (error as Error).message } } as Answer });
    }
  }

  /** Repeats a step until `accept` takes its answer, recording each failure; undefined once the journey's time is up. */
  async step<T>(
    step: Step,
    deadline: number,
    send: () => ReturnType<Visitor['request']>,
    accept: (answer: Answer) => T | undefined,
  ): Promise<T | undefined> {
    for (;;) {
      const { startedAt, answer } = await send();
      const accepted = accept(answer);
      if (accepted !== undefined) return accepted;
      this.records.failures.push({
        startedAt,
        endedAt: Date.now(),
        step,
        status: answer.status,
        detail: JSON.stringify(answer.body).slice(0, 200),
      });
      if (Date.now() > deadline) return undefined;
      await delay(RETRY_PAUSE_MS);
    }
  }
}

const idempotencyKey = () => randomBytes(18).toString('base64url');

/** One visitor's whole journey; true when it reached its voucher. */
async function journey(options: LoadOptions, records: LoadRecords): Promise<boolean> {
  const visitor = new Visitor(options, records);
  const deadline = Date.now() + JOURNEY_LIMIT_MS;
  const key = idempotencyKey();
  const giftId = await visitor.step(
    'play',
    deadline,
    () => visitor.request('play', 'POST', '/api/game/plays', {}, { [IDEMPOTENCY_KEY_HEADER]: key }),
    ({ status, body }) => {
      const gift = body.gift as { giftId?: string } | undefined;
      return status === 200 && body.outcome === 'win' && gift?.giftId ? gift.giftId : undefined;
    },
  );
  if (!giftId) return false;
  records.wins.add(giftId);
  const read = await visitor.step(
    'gift',
    deadline,
    () => visitor.request('gift', 'GET', `/api/gifts/${giftId}`),
    ({ status }) => (status === 200 ? true : undefined),
  );
  if (!read) return false;
  const redeemId = await visitor.step(
    'open',
    deadline,
    () => visitor.request('open', 'POST', `/api/gifts/${giftId}/redeems`, {}),
    ({ status, body }) =>
      (status === 200 || status === 201) && typeof body.redeemId === 'string' ? body.redeemId : undefined,
  );
  if (!redeemId) return false;
  const voucherCode = await visitor.step(
    'complete',
    deadline,
    () =>
      visitor.request('complete', 'POST', `/api/redeems/${redeemId}/complete`, {
        email: visitor.email,
        acceptTerms: true,
      }),
    ({ status, body }) => (status === 200 && typeof body.voucherCode === 'string' ? body.voucherCode : undefined),
  );
  if (!voucherCode) return false;
  records.completions.push({
    giftId,
    redeemId,
    voucherCode,
    cookie: visitor.jar.header(),
    forwardedFor: visitor.address,
  });
  const shown = await visitor.step(
    'voucher',
    deadline,
    () => visitor.request('voucher', 'GET', `/api/redeems/${redeemId}`),
    ({ status, body }) => (status === 200 ? String(body.voucherCode) : undefined),
  );
  if (shown === undefined) return false;
  if (shown !== voucherCode) records.voucherMismatches.push(`${redeemId}: acknowledged ${voucherCode}, read ${shown}`);
  return true;
}

export function emptyRecords(): LoadRecords {
  return {
    requests: 0,
    journeysStarted: 0,
    journeysDone: 0,
    journeysAbandoned: 0,
    mostInFlight: 0,
    failures: [],
    wins: new Set(),
    completions: [],
    voucherMismatches: [],
    slow: [],
  };
}

/** Runs the load until `stop` is aborted; resolves once every journey in flight has ended. */
export async function runLoad(options: LoadOptions, records: LoadRecords, stop: AbortSignal): Promise<void> {
  const inFlight = new Set<Promise<void>>();
  const everyMs = 1000 / options.journeysPerSecond;
  const start = Date.now();
  for (let arrival = 0; !stop.aborted; arrival++) {
    // Arrivals keep to the clock: one late tick is made up by the next ones.
    const due = start + arrival * everyMs;
    if (due > Date.now()) await delay(due - Date.now(), undefined, { signal: stop }).catch(() => undefined);
    if (stop.aborted) break;
    if (inFlight.size >= MAX_IN_FLIGHT) await Promise.race(inFlight);
    records.journeysStarted++;
    const running: Promise<void> = journey(options, records).then((done) => {
      if (done) records.journeysDone++;
      else records.journeysAbandoned++;
      inFlight.delete(running);
    });
    inFlight.add(running);
    records.mostInFlight = Math.max(records.mostInFlight, inFlight.size);
  }
  await Promise.all(inFlight);
}
