/**
 * Distinct clients per part, build and signal (shared/telemetry's METRIC.buildClients): a client
 * (its address hash, as the logs show it) is counted once per window. A judgement of a build
 * (the release run's analysis, the alerts) asks for a number of clients as well as of events,
 * since one client can post as many events as its budget allows. The table is emptied with each
 * window and holds at most MAX_CLIENT_KEYS; past that, a new client is not counted (under-counting
 * only makes a judgement wait) and the log says so once a window.
 */
import { CLIENT_WINDOW_MS, type ClientSignal, OTHER, type PartName, UNKNOWN_BUILD } from 'shared/telemetry';
import { type TelemetryMetrics } from './telemetry-metrics';

export const MAX_CLIENT_KEYS = 100_000;

export class BuildClients {
  private windowStart = Number.NEGATIVE_INFINITY;
  private readonly counted = new Set<string>();
  private told = false;

  constructor(
    private readonly metrics: Pick<TelemetryMetrics, 'buildClients'>,
    private readonly log: { warn(details: object, message: string): void },
    private readonly max = MAX_CLIENT_KEYS,
  ) {}

  /** Counts `client` for `build` of `part` and `signal` if it was not this window; builds without a label are not counted. */
  count(client: string, part: PartName, build: string, signal: ClientSignal, nowMs: number): void {
    if (build === OTHER || build === UNKNOWN_BUILD) return;
    const start = nowMs - (nowMs % CLIENT_WINDOW_MS);
    if (start !== this.windowStart) {
      this.windowStart = start;
      this.counted.clear();
      this.told = false;
    }
    const key = `${client} ${part} ${build} ${signal}`;
    if (this.counted.has(key)) return;
    if (this.counted.size >= this.max) {
      if (!this.told) this.log.warn({ max: this.max }, 'telemetry: the table of clients is full until the window ends');
      this.told = true;
      return;
    }
    this.counted.add(key);
    this.metrics.buildClients.inc({ remote: part, build, signal });
  }
}
