/** The host's telemetry, the only part that reports (docs/decisions/0026-browser-telemetry.md). */
import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import type { RuntimeConfig } from 'shared/runtime-config';
import { telemetryEnabled } from 'shared/runtime-config-checks';
import { TELEMETRY_PATH } from 'shared/telemetry-values';
import { watchCspViolations } from './csp-violations';
import { createLoadPhases } from './load-phases';
import type { RouteTable } from '../route-table/route-table';
import { createPageTelemetry, type PageTelemetry } from './page-telemetry';
import { watchPaintVitals, type PaintVitals } from './paint-vitals';
import { pageParts } from './parts';
import { createBuildAttribution, type BuildAttribution } from './build-attribution';
import { createRouteTimeline, type RouteTimeline } from './route-timeline';
import { takePageTicket, type PageTicket } from './page-ticket';
import { createTelemetryQueue } from './telemetry-queue';
import { paintVitalEvent } from './vital-events';

export interface Telemetry {
  readonly page: PageTelemetry;
  readonly builds: BuildAttribution;
  readonly plugin: ModuleFederationRuntimePlugin;
  readonly routes: RouteTimeline;
  /** Before the app replaces a prerendered page's markup. */
  readonly paints: Pick<PaintVitals, 'firstPaintReported' | 'takeRecords'>;
  /** Starts measuring INP and CLS; call once the first content is on screen. */
  startVitals(): void;
  /** The version check hands it a newer one. */
  readonly ticket: PageTicket;
}

export function startTelemetry(config: RuntimeConfig, hostBuild: string, table: RouteTable): Telemetry | undefined {
  if (!telemetryEnabled(config)) return undefined;
  const ticket = takePageTicket();
  const queue = createTelemetryQueue(
    `${config.apiBaseUrl.replace(/\/+$/, '')}${TELEMETRY_PATH}`,
    hostBuild,
    ticket.current,
  );
  const builds = createBuildAttribution(hostBuild, Object.keys(config.remotes));
  const parts = pageParts(Object.keys(config.remotes));
  const phases = createLoadPhases();
  const routes = createRouteTimeline(table, window.location.pathname);
  const context = { routes, builds, parts };
  const paints = watchPaintVitals(parts, (vital) => queue.record(paintVitalEvent(vital, context)));
  queue.beforeLeaving(paints.finalize);
  watchCspViolations(document, routes.current, queue.record);
  return {
    page: createPageTelemetry({
      record: queue.record,
      builds,
      routes: table,
      phases,
      fetch: (...args) => fetch(...args),
    }),
    builds,
    plugin: phases.plugin,
    routes,
    paints,
    ticket,
    startVitals() {
      import(/* webpackChunkName: "web-vitals" */ './web-vitals-reporter')
        .then(({ reportWebVitals }) => reportWebVitals(context, queue.record))
        // Without its chunk (the network, a deploy), no vitals for this page: nothing to tell the visitor.
        .catch(() => undefined);
    },
  };
}
