/**
 * Each part's running canary as two gauges, read from the deployments the build registry reads:
 * when it started and when its judge (the release run) last judged it, in seconds since the
 * epoch, labelled with the part (`remote`) and the canary's build. Only the canary running now
 * has series, so there is at most one of each per part; the CanaryUnjudged alert fires on a
 * canary whose newer of the two is too old.
 */
import { Gauge, type Registry } from 'prom-client';
import { CANARY_GAUGE_NAMES } from 'shared/telemetry-bounds';
import { type PartCanary } from './build-registry';

export function registerCanaryGauges(registry: Registry, canaries: () => readonly PartCanary[]): void {
  const registers = [registry];
  // Read when scraped, and reset first: a canary promoted or aborted leaves no series behind.
  const gauge = (name: string, help: string, value: (canary: PartCanary) => number | undefined) =>
    new Gauge({
      name,
      help,
      labelNames: ['remote', 'build'],
      registers,
      collect() {
        this.reset();
        for (const canary of canaries()) {
          const ms = value(canary);
          if (ms !== undefined) this.set({ remote: canary.part, build: canary.id }, ms / 1000);
        }
      },
    });
  gauge(
    CANARY_GAUGE_NAMES.started,
    'When the canary running now of each part (remote) started, by its build, in seconds since the epoch.',
    (canary) => canary.since,
  );
  gauge(
    CANARY_GAUGE_NAMES.judged,
    'When the canary running now of each part (remote) was last judged (by a release run), by its build, in seconds since the epoch; no series for a canary never judged.',
    (canary) => canary.judgedAt,
  );
}
