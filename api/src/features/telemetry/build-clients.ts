/**
 * Distinct clients per part, build and signal, each counted again only CLIENT_WINDOW_MS later:
 * a judgement needs clients as well as events. A full table drops entries past the window, else
 * leaves a new client uncounted (which only makes a judgement wait) and logs it once.
 */
import { CLIENT_WINDOW_MS, type ClientSignal, OTHER, UNKNOWN_BUILD } from 'shared/telemetry';
import { type TelemetryMetrics } from './telemetry-metrics';

export const MAX_CLIENT_KEYS = 100_000;

export class BuildClients {
  private readonly countedAt = new Map<string, number>();
  private told = false;

  constructor(
    private readonly metrics: Pick<TelemetryMetrics, 'buildClients'>,
    private readonly log: { warn(details: object, message: string): void },
    private readonly max = MAX_CLIENT_KEYS,
  ) {}

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
