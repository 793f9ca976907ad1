/**
 * `POST /api/telemetry`: a batch of what the host's page saw (shared/telemetry), sent with
 * `navigator.sendBeacon(url, string)`, so `text/plain;charset=UTF-8`, or as `application/json`
 * → 204. 400 when it is not a batch of the contract's shape, 413 over TELEMETRY_MAX_BYTES, 429
 * past the address's budget.
 *
 * The app refuses `text/plain` everywhere else (a cross-site form can send it without a
 * preflight, with the visitor's cookie); this route takes it in a plugin of its own, so the
 * parser exists for this route only. It reads no cookie and changes nothing of a visitor's, and
 * the same-site guard still refuses a beacon from another site.
 */
import { telemetryBatchSchema } from 'shared/api/contract';
import { TELEMETRY_MAX_BYTES, TELEMETRY_PATH } from 'shared/telemetry';
import { type App, type AppContext } from '../../app-context';
import { registerCspReports } from './csp-reports-route';
import { addressHash } from '../../http/request-log';
import { BuildClients } from './build-clients';
import { registerCanaryGauges } from './canary-gauges';
import { FirstLoads, ticketOf } from './page-tickets';
import { type BatchRecorder, buildsNamed, recordBatch } from './record-batch';
import { installIntake, knownOriginsOf } from './telemetry-intake';
import { createTelemetryMetrics } from './telemetry-metrics';

/** Both telemetry routes: the pages' batches here, the browsers' CSP reports (csp-reports-route.ts). */
export function registerTelemetry(app: App, context: AppContext): void {
  const metrics = createTelemetryMetrics(context.metrics.registry, app.log);
  registerCanaryGauges(context.metrics.registry, () => context.builds.canaries());
  registerCspReports(app, context, metrics);
  const recorder: BatchRecorder = {
    metrics,
    builds: context.builds,
    routes: context.routes,
    knownOrigin: knownOriginsOf(context),
    firstLoads: new FirstLoads(),
    clients: new BuildClients(metrics, app.log),
  };
  void app.register(async (scope: App) => {
    scope.addContentTypeParser('text/plain', { parseAs: 'string' }, scope.getDefaultJsonParser('error', 'error'));
    installIntake(scope, metrics, context);
    scope.post(
      TELEMETRY_PATH,
      {
        bodyLimit: TELEMETRY_MAX_BYTES,
        schema: { body: telemetryBatchSchema },
        config: { bodyTypes: ['text/plain'] },
      },
      async (request, reply) => {
        const nowMs = context.now().getTime();
        const ticket = ticketOf(request.body.ticket, context.config.pageTicketSecrets, nowMs);
        // A build the registry does not know yet (just made current, or a canary just started) is
        // looked up before the batch is labelled, so its first events are not `other`.
        await context.builds.learn(buildsNamed(request.body, ticket, recorder.routes));
        recordBatch(request.body, { ticket, client: addressHash(request.ip), nowMs }, recorder);
        metrics.batches.inc({ result: 'accepted' });
        return reply.code(204).send();
      },
    );
  });
}
