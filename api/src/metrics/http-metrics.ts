/**
 * Every answer's duration by method, route pattern and status, and the 409s and 503s by route:
 * the route is Fastify's pattern (`/api/gifts/:giftId`), never the path, so no id reaches a label.
 */
import { type App } from '../app-context';
import { type ApiMetrics } from './api-metrics';

/** The route label of a request no route matched (the 404 handler). */
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
