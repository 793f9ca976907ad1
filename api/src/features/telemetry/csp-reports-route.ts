/**
 * `POST /api/telemetry/csp`: browsers' own CSP reports → 204, counted by route, directive and
 * blocked origin. Logged one line per post, alike violations grouped, never the page's path (ids).
 */
import { CSP_REPORTS_PATH, TELEMETRY_MAX_BYTES } from 'shared/telemetry';
import { type App, type AppContext } from '../../app-context';
import { blockedLabel, blockedOf, directiveLabel } from './csp-labels';
import { CSP_REPORT_TYPES, cspReportBodySchema, type CspViolation, violationsOf } from './csp-report';
import { type KnownRoutes } from './known-routes';
import { installIntake, knownOriginsOf } from './telemetry-intake';
import { type TelemetryMetrics } from './telemetry-metrics';

const dispositionOf = (value: string) => (value === 'enforce' || value === 'report' ? value : 'other');

interface LoggedViolations {
  route: string;
  directive: string;
  blocked: string;
  disposition: string;
  count: number;
}

function groupForLog(violations: readonly CspViolation[], routes: KnownRoutes): LoggedViolations[] {
  const groups = new Map<string, LoggedViolations>();
  for (const violation of violations) {
    const entry = {
      route: routes.patternOfUrl(violation.documentUrl),
      directive: directiveLabel(violation.directive),
      blocked: blockedOf(violation.blocked),
      disposition: dispositionOf(violation.disposition),
    };
    const key = JSON.stringify(entry);
    const group = groups.get(key);
    if (group) group.count += 1;
    else groups.set(key, { ...entry, count: 1 });
  }
  return [...groups.values()];
}

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
        const violations = violationsOf(request.body);
        for (const violation of violations)
          metrics.cspViolations.inc({
            route: context.routes.patternOfUrl(violation.documentUrl),
            directive: directiveLabel(violation.directive),
            blocked: blockedLabel(violation.blocked, knownOrigin),
            source: 'report',
          });
        if (violations.length > 0)
          request.log.info(
            { violations: violations.length, reported: groupForLog(violations, context.routes) },
            'CSP violations reported',
          );
        metrics.batches.inc({ result: 'accepted' });
        return reply.code(204).send();
      },
    );
  });
}
