/**
 * A fixed-window budget per address in this process's memory (telemetry, unknown redeem reads).
 * Not the shared database counters: they guard nothing scarce, and a write per beacon would let a
 * flood cost the database; N processes admit at most N budgets. As the table fills, new clients
 * are counted by their network, and only a full table refuses (docs/configuration.md).
 */
import { hashValue } from '../hash';
import { subjectGroups } from '../http/client-ip';
import { addressHash } from '../http/request-log';
import { minuteWindow, secondsUntil, type TimeWindow } from '../time';

export const MAX_SUBJECTS = 100_000;

export type Taken = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface AddressBudgetOptions {
  limit: number;
  name: string;
  maxSubjects?: number;
  log?: { warn(fields: Record<string, unknown>, message: string): void };
}

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

  /** Takes nothing: refuses before work only some outcomes are charged for. */
  check(ip: string, now: Date): Taken {
    const window = this.windowOf(now);
    const subject = this.subjectOf(ip);
    if (subject !== undefined && (this.hits.get(subject) ?? 0) >= this.options.limit)
      return { ok: false, retryAfterSeconds: secondsUntil(window.end, now) };
    return { ok: true };
  }

  private subjectOf(ip: string): string | undefined {
    const finest = addressHash(ip);
    if (this.hits.has(finest)) return finest;
    return subjectGroups(ip)
      .slice(1)
      .map(hashValue)
      .find((subject) => this.hits.has(subject));
  }

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
