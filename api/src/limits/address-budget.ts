/**
 * A fixed-window budget per address kept in this process's memory, for telemetry and for reads
 * of unknown redeem sessions.
 *
 * Why not the database counters of rate-limit.ts, which every process shares: those guard what
 * is scarce and must hold exactly (plays, prizes, redeem attempts), at the price of a write per
 * request. Telemetry guards nothing scarce: the budget only keeps one client from flooding the
 * metrics or the process. A database write per beacon would make every page view cost the
 * database (which plays and redeems need) a write, and a flood of beacons a flood of writes,
 * which is what the limit is there to stop. In memory a check costs a map lookup. The price: with
 * N API processes behind a balancer a client may send up to N times the budget, which is
 * still bounded, and an operator sizes the limit knowing it.
 *
 * Subjects are the same hashes the logs show (never an address). Memory is bounded: the table is
 * emptied with each window and holds at most `maxSubjects`. A client with many addresses could
 * fill it, so as it fills a new subject is counted by its network (client-ip.ts
 * `subjectGroups`): from half full an IPv6 address by its /56, from three quarters by its /48
 * and an IPv4 one by its /24; a subject already counted keeps its own budget. Only once the
 * table is full is a subject it does not hold refused, until the window ends (admitting it
 * unlimited would let anyone with enough networks switch the limit off). Each of these is logged
 * once a window.
 */
import { hashValue } from '../hash';
import { subjectGroups } from '../http/client-ip';
import { addressHash } from '../http/request-log';
import { minuteWindow, secondsUntil, type TimeWindow } from '../time';

export const MAX_SUBJECTS = 100_000;

export type Taken = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface AddressBudgetOptions {
  /** Hits per subject per minute. */
  limit: number;
  /** What is budgeted, for the log: "telemetry posts". */
  name: string;
  maxSubjects?: number;
  log?: { warn(fields: Record<string, unknown>, message: string): void };
}

/** How coarse a new subject is (an index into `subjectGroups`) by how full the table is. */
function groupLevel(size: number, maxSubjects: number): 0 | 1 | 2 {
  if (size >= (maxSubjects * 3) / 4) return 2;
  return size >= maxSubjects / 2 ? 1 : 0;
}

const LEVEL_NOTES = [
  '',
  'the table is half full: new IPv6 clients are counted by their /56',
  'the table is three quarters full: new clients are counted by their IPv6 /48 or IPv4 /24',
];

export class AddressBudget {
  private windowStart = Number.NEGATIVE_INFINITY;
  private readonly hits = new Map<string, number>();
  private readonly maxSubjects: number;
  /** The coarsest level logged this window; past the last one, the table is full. */
  private logged = 0;

  constructor(private readonly options: AddressBudgetOptions) {
    this.maxSubjects = options.maxSubjects ?? MAX_SUBJECTS;
  }

  /** Takes one hit from the budget of the client at `ip` for the minute containing `now`, if any is left. */
  take(ip: string, now: Date): Taken {
    const window = this.windowOf(now);
    const subject = this.subjectOf(ip);
    const used = subject === undefined ? undefined : this.hits.get(subject);
    if (used !== undefined && used >= this.options.limit)
      return { ok: false, retryAfterSeconds: secondsUntil(window.end, now) };
    const counted = used === undefined ? this.newSubject(ip) : subject;
    if (counted === undefined) return { ok: false, retryAfterSeconds: secondsUntil(window.end, now) };
    this.hits.set(counted, (used ?? 0) + 1);
    return { ok: true };
  }

  /**
   * Whether the client has used its whole budget for the minute containing `now`, taking
   * nothing: to refuse before doing work that only some outcomes are charged for. A client the
   * table has no room for has spent nothing yet, and passes here (`take` refuses it).
   */
  check(ip: string, now: Date): Taken {
    const window = this.windowOf(now);
    const subject = this.subjectOf(ip);
    if (subject !== undefined && (this.hits.get(subject) ?? 0) >= this.options.limit)
      return { ok: false, retryAfterSeconds: secondsUntil(window.end, now) };
    return { ok: true };
  }

  /** The finest of the client's subjects the table holds. */
  private subjectOf(ip: string): string | undefined {
    const finest = addressHash(ip);
    if (this.hits.has(finest)) return finest;
    return subjectGroups(ip)
      .slice(1)
      .map(hashValue)
      .find((subject) => this.hits.has(subject));
  }

  /** The subject a client the table does not hold is counted as, or undefined when it is full. */
  private newSubject(ip: string): string | undefined {
    if (this.hits.size >= this.maxSubjects) {
      this.note(LEVEL_NOTES.length, 'the table is full: clients it does not hold are refused until the minute ends');
      return undefined;
    }
    const level = groupLevel(this.hits.size, this.maxSubjects);
    if (level > 0) this.note(level, LEVEL_NOTES[level] ?? '');
    return level === 0 ? addressHash(ip) : hashValue(subjectGroups(ip)[level]);
  }

  private note(level: number, message: string): void {
    if (level <= this.logged) return;
    this.logged = level;
    this.options.log?.warn(
      { budget: this.options.name, subjects: this.hits.size, maxSubjects: this.maxSubjects },
      `address budget: ${message}`,
    );
  }

  /** The minute containing `now`; the table is emptied when a new one begins. */
  private windowOf(now: Date): TimeWindow {
    const window = minuteWindow(now);
    if (window.start.getTime() !== this.windowStart) {
      this.windowStart = window.start.getTime();
      this.hits.clear();
      this.logged = 0;
    }
    return window;
  }
}
