import { Histogram, Registry } from 'prom-client';
import { REQUEST_DURATION, RequestDurations } from './request-durations';

const BOUNDS = [0.001, 0.01, 0.1, 1];
const OBSERVED: [string, string, number, number][] = [
  ['GET', '/api/gifts/:giftId', 200, 0.0004],
  ['GET', '/api/gifts/:giftId', 200, 0.001],
  ['GET', '/api/gifts/:giftId', 200, 0.05],
  ['GET', '/api/gifts/:giftId', 404, 0.002],
  ['POST', '/api/game/plays', 200, 3],
  ['GET', 'unmatched', 404, 0.0001],
];

/** The exposition's lines with each line's labels in one order (Prometheus reads them in any). */
function normalized(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.replace(/\{([^}]*)\}/, (_, labels: string) => `{${labels.split(',').sort().join(',')}}`));
}

function registry(): Registry {
  const made = new Registry();
  made.setDefaultLabels({ part: 'api' });
  return made;
}

it('exposes what prom-client’s own Histogram would, default labels included', async () => {
  const ours = registry();
  const durations = new RequestDurations('Time to answer.', BOUNDS, ours);
  const theirs = registry();
  const histogram = new Histogram({
    name: REQUEST_DURATION,
    help: 'Time to answer.',
    labelNames: ['method', 'route', 'status'],
    buckets: BOUNDS,
    registers: [theirs],
  });
  for (const [method, route, status, seconds] of OBSERVED) {
    durations.record(method, route, status, seconds);
    histogram.observe({ method, route, status: String(status) }, seconds);
  }

  expect(normalized(await ours.metrics())).toEqual(normalized(await theirs.metrics()));
  expect(await ours.getMetricsAsJSON()).toEqual(await theirs.getMetricsAsJSON());
});

it('is emptied by the registry’s reset, like any metric', async () => {
  const ours = registry();
  const durations = new RequestDurations('Time to answer.', BOUNDS, ours);
  durations.observe({ method: 'GET', route: '/api/health', status: '200' }, 0.001);
  ours.resetMetrics();
  expect(await ours.metrics()).toBe(
    `# HELP ${REQUEST_DURATION} Time to answer.\n# TYPE ${REQUEST_DURATION} histogram\n`,
  );
});
