/** Labelled with Fastify's route pattern, never the path: no id reaches a label. */
import { type App } from '../app-context';
import { type ApiMetrics } from './api-metrics';

export const UNMATCHED_ROUTE = 'unmatched';

export function installHttpMetrics(app: App, metrics: ApiMetrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    const status = reply.statusCode;
    metrics.httpDuration.observe({ method: request.method, route, status: String(status) }, reply.elapsedTime / 1000);
    if (status === 409) metrics.conflicts.inc({ route });
    else if (status === 503) metrics.unavailable.inc({ route });
    done();
  });
}
