/**
 * A checked batch's events as series: a build is a label only when the ticket and the part's
 * deployment name it; an unknown part or route is `other` (docs/decisions/0034-bounded-telemetry-series.md).
 */
import { type PageTicket } from 'server/page-ticket';
import { type TelemetryBatchBody } from 'shared/api/contract';
import { type ClientSignal, FAILED_LOAD_OUTCOMES, OTHER, UNKNOWN_BUILD } from 'shared/telemetry';
import { errorPageStatusLabel } from 'shared/telemetry-labels';
import { type BuildClients } from './build-clients';
import { type BuildRegistry } from './build-registry';
import { blockedLabel, directiveLabel, type KnownOrigin } from './csp-labels';
import { type KnownRoutes } from './known-routes';
import { type FirstLoads, ticketedBuildLabel } from './page-tickets';
import { type TelemetryMetrics } from './telemetry-metrics';

export interface BatchSender {
  /** The page's ticket, verified; none: no event of the batch is labelled with a build. */
  ticket: PageTicket | undefined;
  client: string;
  nowMs: number;
}

export interface BatchRecorder {
  metrics: TelemetryMetrics;
  builds: BuildRegistry;
  routes: KnownRoutes;
  knownOrigin: KnownOrigin;
  firstLoads: FirstLoads;
  clients: BuildClients;
}

/** A batch without a ticket makes the API read nothing. */
export function buildsNamed(
  batch: TelemetryBatchBody,
  ticket: PageTicket | undefined,
  routes: KnownRoutes,
): { part: string; build: string }[] {
  if (!ticket) return [];
  return batch.events.flatMap((event) => {
    const part = 'remote' in event ? routes.part(event.remote) : undefined;
    if (part === undefined) return [];
    switch (event.kind) {
      case 'load':
      case 'reload':
      case 'vital':
        return [{ part, build: event.build }];
      case 'error-page':
        return event.build === undefined ? [] : [{ part, build: event.build }];
      case 'fallback':
        return [
          { part, build: event.from },
          { part, build: event.to },
        ];
      default:
        return [];
    }
  });
}

interface PartLabels {
  part: string | undefined;
  remote: string;
  build: (build: string) => string;
}

function partLabelsOf(remote: string, sender: BatchSender, { builds, routes }: BatchRecorder): PartLabels {
  const part = routes.part(remote);
  if (part === undefined) return { part, remote: OTHER, build: () => OTHER };
  return { part, remote: part, build: (build) => ticketedBuildLabel(builds, sender.ticket, part, build) };
}

export function recordBatch(batch: TelemetryBatchBody, sender: BatchSender, recorder: BatchRecorder): void {
  const { metrics, routes, knownOrigin, firstLoads, clients } = recorder;
  const countClient = (labels: PartLabels, build: string, signal: ClientSignal) => {
    if (labels.part !== undefined) clients.count(sender.client, labels.part, build, signal, sender.nowMs);
  };
  const pageLabels = (route: string, labels: PartLabels, build: string) => ({
    route: labels.part === undefined ? OTHER : routes.routeLabel(route, labels.part),
    remote: labels.remote,
    build: labels.build(build),
  });
  for (const event of batch.events) {
    if (event.kind === 'csp') {
      metrics.cspViolations.inc({
        route: routes.anyRouteLabel(event.route),
        directive: directiveLabel(event.directive),
        blocked: blockedLabel(event.blocked, knownOrigin),
        source: 'page',
      });
      continue;
    }
    const part = partLabelsOf(event.remote, sender, recorder);
    switch (event.kind) {
      case 'load': {
        const first = sender.ticket !== undefined && firstLoads.take(sender.ticket.nonce, part.remote);
        const build = first ? part.build(event.build) : OTHER;
        metrics.remoteLoads.inc({ remote: part.remote, build, phase: event.phase, outcome: event.outcome });
        metrics.remoteLoadSeconds.observe({ remote: part.remote, build, outcome: event.outcome }, event.ms / 1000);
        countClient(part, build, 'load');
        if (FAILED_LOAD_OUTCOMES.includes(event.outcome)) countClient(part, build, 'failed');
        break;
      }
      case 'reload':
        metrics.reloads.inc(pageLabels(event.route, part, event.build));
        break;
      case 'error-page': {
        const labels = pageLabels(event.route, part, event.build ?? UNKNOWN_BUILD);
        metrics.errorPages.inc({ ...labels, status: errorPageStatusLabel(event.status) });
        countClient(part, labels.build, 'error_page');
        break;
      }
      case 'fallback':
        metrics.remoteFallbacks.inc({ remote: part.remote, from: part.build(event.from), to: part.build(event.to) });
        break;
      case 'vital': {
        const labels = pageLabels(event.route, part, event.build);
        if (event.name === 'CLS') metrics.webVitalCls.observe(labels, event.value);
        else metrics.webVitalSeconds.observe({ ...labels, metric: event.name }, event.value / 1000);
        break;
      }
    }
  }
}
