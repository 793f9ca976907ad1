/**
 * Distinct clients per part, build and signal (shared/telemetry's METRIC.buildClients): a client
 * (its address hash, as the logs show it) is counted once, and again only CLIENT_WINDOW_MS after
 * it was last counted, so in any range of Prometheus's up to that long one API process counts one
 * client at most once (with N processes, at most N times). A judgement of a build (the release
 * run's analysis, the alerts) asks for a number of clients as well as of events, since one client
 * can post as many events as its budget allows. The table holds at most MAX_CLIENT_KEYS; when it
 * is full, the entries older than the window are dropped, and if none is, a new client is not
 * counted (under-counting only makes a judgement wait) and the log says so once.
 */
import { CLIENT_WINDOW_MS, type ClientSignal, OTHER, UNKNOWN_BUILD } from 'shared/telemetry';
import { type TelemetryMetrics } from './telemetry-metrics';

export const MAX_CLIENT_KEYS = 100_000;

export class BuildClients {
  /** When each client was last counted for a part, build and signal (ms), oldest first. */
  private readonly countedAt = new Map<string, number>();
  private told = false;

  constructor(
    private readonly metrics: Pick<TelemetryMetrics, 'buildClients'>,
    private readonly log: { warn(details: object, message: string): void },
    private readonly max = MAX_CLIENT_KEYS,
  ) {}

  /** Counts `client` for `build` of `part` and `signal` unless it was within the window; builds without a label are not counted. */
  count(client: string, part: string, build: string, signal: ClientSignal, nowMs: number): void {
    if (build === OTHER || build === UNKNOWN_BUILD) return;
    const key = `${client} ${part} ${build} ${signal}`;
    const last = this.countedAt.get(key);
    if (last !== undefined && nowMs - last < CLIENT_WINDOW_MS) return;
    this.countedAt.delete(key);
    if (this.countedAt.size >= this.max && !this.dropExpired(nowMs)) {
      if (!this.told)
        this.log.warn({ max: this.max }, 'telemetry: the table of clients is full; new clients are not counted');
      this.told = true;
      return;
    }
    this.countedAt.set(key, nowMs);
    this.metrics.buildClients.inc({ remote: part, build, signal });
  }

  /** Drops the entries counted longer than the window ago (the oldest come first); true when any was. */
  private dropExpired(nowMs: number): boolean {
    let dropped = false;
    for (const [key, at] of this.countedAt) {
      if (nowMs - at < CLIENT_WINDOW_MS) break;
      this.countedAt.delete(key);
      dropped = true;
    }
    if (dropped) this.told = false;
    return dropped;
  }
}
