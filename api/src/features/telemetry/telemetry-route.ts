/**
 * `POST /api/telemetry`: a page's batch as a beacon (`text/plain`, parsed for this route only,
 * which reads no cookie and changes nothing of a visitor's) or JSON → 204; 400, 413 or 429.
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
        // So a just-published build's first events are not `other`.
        await context.builds.learn(buildsNamed(request.body, ticket, recorder.routes));
        recordBatch(request.body, { ticket, client: addressHash(request.ip), nowMs }, recorder);
        metrics.batches.inc({ result: 'accepted' });
        return reply.code(204).send();
      },
    );
  });
}
