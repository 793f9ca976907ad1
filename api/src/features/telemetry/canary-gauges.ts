/** Each part's running canary's start and last judgement, for the CanaryUnjudged alert. */
import { Gauge, type Registry } from 'prom-client';
import { CANARY_GAUGE_NAMES } from 'shared/telemetry-bounds';
import { type PartCanary } from './build-registry';

export function registerCanaryGauges(registry: Registry, canaries: () => readonly PartCanary[]): void {
  const registers = [registry];
  // Reset first: a promoted or aborted canary leaves no series.
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
