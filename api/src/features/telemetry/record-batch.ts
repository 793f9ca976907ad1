/**
 * A checked batch's events, as series. A build becomes a label only when the page's ticket names
 * it and its part's deployment names it now (page-tickets.ts, `BuildRegistry.label`); a vital's,
 * a reload's or an error page's part may be the host itself, on any route, a remote only on its
 * own routes (`pageLabels`). An error page from a page that sent no build (one older than the
 * label) is `unknown`; its status is kept when an operator acts on it, else its class. A page's
 * ticket vouches for its first load of each remote only, and the clients that reported a build
 * are counted apart from the events (build-clients.ts).
 */
import { type PageTicket } from 'server/page-ticket';
import { type TelemetryBatchBody } from 'shared/api/contract';
import { FAILED_LOAD_OUTCOMES, OTHER, type PartName, UNKNOWN_BUILD } from 'shared/telemetry';
import { errorPageStatusLabel, ownedRouteLabel } from 'shared/telemetry-labels';
import { type BuildClients } from './build-clients';
import { type BuildRegistry } from './build-registry';
import { blockedLabel, directiveLabel, type KnownOrigin } from './csp-labels';
import { type FirstLoads, ticketedBuildLabel } from './page-tickets';
import { type TelemetryMetrics } from './telemetry-metrics';

/** Who sent a batch, and what vouches for it. */
export interface BatchSender {
  /** The page's ticket, verified; none: no event of the batch is labelled with a build. */
  ticket: PageTicket | undefined;
  /** The client's address hash. */
  client: string;
  nowMs: number;
}

/** What the recording keeps across batches. */
export interface BatchRecorder {
  metrics: TelemetryMetrics;
  builds: BuildRegistry;
  knownOrigin: KnownOrigin;
  firstLoads: FirstLoads;
  clients: BuildClients;
}

/**
 * Each part and build id a batch's events name that its ticket vouches for, for the registry to
 * learn before labelling: a batch without a ticket makes the API read nothing.
 */
export function buildsNamed(
  batch: TelemetryBatchBody,
  ticket: PageTicket | undefined,
): { part: PartName; build: string }[] {
  if (!ticket) return [];
  return batch.events.flatMap((event) => {
    switch (event.kind) {
      case 'load':
      case 'reload':
      case 'vital':
        return [{ part: event.remote, build: event.build }];
      case 'error-page':
        return event.build === undefined ? [] : [{ part: event.remote, build: event.build }];
      case 'fallback':
        return [
          { part: event.remote, build: event.from },
          { part: event.remote, build: event.to },
        ];
      default:
        return [];
    }
  });
}

export function recordBatch(batch: TelemetryBatchBody, sender: BatchSender, recorder: BatchRecorder): void {
  const { metrics, builds, knownOrigin, firstLoads, clients } = recorder;
  const buildLabel = (part: PartName, build: string) => ticketedBuildLabel(builds, sender.ticket, part, build);
  const pageLabels = (route: string, part: PartName, build: string) => ({
    route: ownedRouteLabel(route, part),
    remote: part,
    build: buildLabel(part, build),
  });
  for (const event of batch.events) {
    switch (event.kind) {
      case 'load': {
        const first = sender.ticket !== undefined && firstLoads.take(sender.ticket.nonce, event.remote);
        const build = first ? buildLabel(event.remote, event.build) : OTHER;
        metrics.remoteLoads.inc({ remote: event.remote, build, phase: event.phase, outcome: event.outcome });
        metrics.remoteLoadSeconds.observe({ remote: event.remote, build, outcome: event.outcome }, event.ms / 1000);
        clients.count(sender.client, event.remote, build, 'load', sender.nowMs);
        if (FAILED_LOAD_OUTCOMES.includes(event.outcome))
          clients.count(sender.client, event.remote, build, 'failed', sender.nowMs);
        break;
      }
      case 'reload':
        metrics.reloads.inc(pageLabels(event.route, event.remote, event.build));
        break;
      case 'error-page': {
        const labels = pageLabels(event.route, event.remote, event.build ?? UNKNOWN_BUILD);
        metrics.errorPages.inc({ ...labels, status: errorPageStatusLabel(event.status) });
        clients.count(sender.client, event.remote, labels.build, 'error_page', sender.nowMs);
        break;
      }
      case 'fallback':
        metrics.remoteFallbacks.inc({
          remote: event.remote,
          from: buildLabel(event.remote, event.from),
          to: buildLabel(event.remote, event.to),
        });
        break;
      case 'vital': {
        const labels = pageLabels(event.route, event.remote, event.build);
        if (event.name === 'CLS') metrics.webVitalCls.observe(labels, event.value);
        else metrics.webVitalSeconds.observe({ ...labels, metric: event.name }, event.value / 1000);
        break;
      }
      case 'csp':
        metrics.cspViolations.inc({
          route: event.route,
          directive: directiveLabel(event.directive),
          blocked: blockedLabel(event.blocked, knownOrigin),
          source: 'page',
        });
        break;
    }
  }
}
