/**
 * A checked batch's events, as series. Build ids become labels only when the part's deployment
 * names them (`BuildRegistry.label`); a vital's, a reload's or an error page's part may be the
 * host itself, on any route, a remote only on its own routes (`pageLabels`). An error page from a
 * page that sent no build (one older than the label) is `unknown`; its status is kept when an
 * operator acts on it, else its class.
 */
import { type TelemetryBatchBody } from 'shared/api/contract';
import { type PartName, UNKNOWN_BUILD } from 'shared/telemetry';
import { errorPageStatusLabel, ownedRouteLabel } from 'shared/telemetry-labels';
import { blockedLabel, directiveLabel, type KnownOrigin } from './csp-labels';
import { type BuildRegistry } from './build-registry';
import { type TelemetryMetrics } from './telemetry-metrics';

/** Each part and build id a batch's events name, for the registry to learn before labelling. */
export function buildsNamed(batch: TelemetryBatchBody): { part: PartName; build: string }[] {
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

/** The labels of what a page saw on `route` in `part`'s part of it, running `build` of that part. */
function pageLabels(builds: BuildRegistry, route: string, part: PartName, build: string) {
  return { route: ownedRouteLabel(route, part), remote: part, build: builds.label(part, build) };
}

export function recordBatch(
  batch: TelemetryBatchBody,
  metrics: TelemetryMetrics,
  builds: BuildRegistry,
  knownOrigin: KnownOrigin,
): void {
  for (const event of batch.events) {
    switch (event.kind) {
      case 'load': {
        const build = builds.label(event.remote, event.build);
        metrics.remoteLoads.inc({ remote: event.remote, build, phase: event.phase, outcome: event.outcome });
        metrics.remoteLoadSeconds.observe({ remote: event.remote, build, outcome: event.outcome }, event.ms / 1000);
        break;
      }
      case 'reload':
        metrics.reloads.inc(pageLabels(builds, event.route, event.remote, event.build));
        break;
      case 'error-page':
        metrics.errorPages.inc({
          ...pageLabels(builds, event.route, event.remote, event.build ?? UNKNOWN_BUILD),
          status: errorPageStatusLabel(event.status),
        });
        break;
      case 'fallback':
        metrics.remoteFallbacks.inc({
          remote: event.remote,
          from: builds.label(event.remote, event.from),
          to: builds.label(event.remote, event.to),
        });
        break;
      case 'vital': {
        const labels = pageLabels(builds, event.route, event.remote, event.build);
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
