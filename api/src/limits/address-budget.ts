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
 * emptied with each window, and holds at most `maxSubjects`; past that, a subject it does not
 * hold yet is refused until the window ends, since admitting it unlimited would let anyone with
 * enough addresses switch the limit off.
 */
import { minuteWindow, secondsUntil, type TimeWindow } from '../time';

export const MAX_SUBJECTS = 100_000;

export type Taken = { ok: true } | { ok: false; retryAfterSeconds: number };

export class AddressBudget {
  private windowStart = Number.NEGATIVE_INFINITY;
  private readonly hits = new Map<string, number>();

  constructor(
    /** Hits per subject per minute. */
    private readonly limit: number,
    private readonly maxSubjects = MAX_SUBJECTS,
  ) {}

  /** Takes one hit from the subject's budget for the minute containing `now`, if any is left. */
  take(subject: string, now: Date): Taken {
    const window = this.windowOf(now);
    const used = this.hits.get(subject);
    if (used === undefined ? this.hits.size >= this.maxSubjects : used >= this.limit)
      return { ok: false, retryAfterSeconds: secondsUntil(window.end, now) };
    this.hits.set(subject, (used ?? 0) + 1);
    return { ok: true };
  }

  /**
   * Whether the subject has used its whole budget for the minute containing `now`, taking
   * nothing: to refuse before doing work that only some outcomes are charged for. A subject the
   * table has no room for has spent nothing yet, and passes here (`take` refuses it).
   */
  check(subject: string, now: Date): Taken {
    const window = this.windowOf(now);
    if ((this.hits.get(subject) ?? 0) >= this.limit)
      return { ok: false, retryAfterSeconds: secondsUntil(window.end, now) };
    return { ok: true };
  }

  /** The minute containing `now`; the table is emptied when a new one begins. */
  private windowOf(now: Date): TimeWindow {
    const window = minuteWindow(now);
    if (window.start.getTime() !== this.windowStart) {
      this.windowStart = window.start.getTime();
      this.hits.clear();
    }
    return window;
  }
}
