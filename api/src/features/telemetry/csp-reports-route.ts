/**
 * `POST /api/telemetry/csp`: the browsers' own CSP reports (csp-report.ts) → 204, each violation
 * counted by the route pattern of its page, its directive and what it blocked. Browsers send them
 * without the page's involvement, possibly without an Origin, from the pages' `report-to` and
 * `report-uri`: the same-site guard lets this route be, since it reads no cookie and moves
 * nothing but counters; the body limit and the address's budget bound it.
 *
 * Each violation is logged at info with the blocked URL's origin (or keyword), which the label
 * shows only when it is one of this deployment's, so an operator can see what else was blocked.
 * Never the page's address: its path holds ids.
 */
import { CSP_REPORTS_PATH, TELEMETRY_MAX_BYTES } from 'shared/telemetry';
import { type App, type AppContext } from '../../app-context';
import { blockedLabel, blockedOf, directiveLabel } from './csp-labels';
import { CSP_REPORT_TYPES, cspReportBodySchema, violationsOf } from './csp-report';
import { routePatternOfUrl } from './route-pattern';
import { installIntake, knownOriginsOf } from './telemetry-intake';
import { type TelemetryMetrics } from './telemetry-metrics';

const dispositionOf = (value: string) => (value === 'enforce' || value === 'report' ? value : 'other');

export function registerCspReports(app: App, context: AppContext, metrics: TelemetryMetrics): void {
  const knownOrigin = knownOriginsOf(context);
  void app.register(async (scope: App) => {
    scope.addContentTypeParser(
      [...CSP_REPORT_TYPES],
      { parseAs: 'string' },
      scope.getDefaultJsonParser('error', 'error'),
    );
    installIntake(scope, metrics, context);
    scope.post(
      CSP_REPORTS_PATH,
      { bodyLimit: TELEMETRY_MAX_BYTES, schema: { body: cspReportBodySchema }, config: { anySite: true } },
      async (request, reply) => {
        for (const violation of violationsOf(request.body)) {
          const route = routePatternOfUrl(violation.documentUrl);
          const directive = directiveLabel(violation.directive);
          metrics.cspViolations.inc({
            route,
            directive,
            blocked: blockedLabel(violation.blocked, knownOrigin),
            source: 'report',
          });
          request.log.info(
            {
              route,
              directive,
              blocked: blockedOf(violation.blocked),
              disposition: dispositionOf(violation.disposition),
            },
            'CSP violation reported',
          );
        }
        metrics.batches.inc({ result: 'accepted' });
        return reply.code(204).send();
      },
    );
  });
}
