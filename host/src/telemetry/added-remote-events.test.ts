/**
 * A remote the host's build never saw, composed into the page's table (`news` at `/news`), is
 * reported as the registry's remotes are: its loads, error pages, reloads and vitals carry its
 * name, the build its manifest gave and its route. Each event as the API's contract takes it.
 */
import { telemetryEventSchema } from 'shared/api/contract';
import { REMOTE_NAMES } from 'shared/remotes';
import type { TelemetryEvent } from 'shared/telemetry';
import { RouteTable } from '../route-table/route-table';
import { createLoadPhases } from './load-phases';
import { createPageTelemetry } from './page-telemetry';
import { pageParts } from './parts';
import { createBuildAttribution } from './build-attribution';
import { createRouteTimeline } from './route-timeline';
import { paintVitalEvent } from './vital-events';

const CONFIGURED = [...REMOTE_NAMES, 'news'];
const TABLE = new RouteTable([
  ...RouteTable.registry().routes,
  { remote: 'news', module: 'NewsPage', path: '/news', layout: 'default', title: 'News' },
]);

function recording() {
  const events: TelemetryEvent[] = [];
  const builds = createBuildAttribution('host-b7', CONFIGURED);
  builds.record('news', 'https://news.example.com/', 'n-1', new Map());
  const telemetry = createPageTelemetry({
    record: (event) => events.push(telemetryEventSchema.parse(event) as TelemetryEvent),
    builds,
    routes: TABLE,
    phases: createLoadPhases(),
    fetch: jest.fn(),
  });
  return { telemetry, builds, events };
}

describe("an added remote's telemetry", () => {
  it('names the remote, its build and its route in its loads, error pages and reloads', () => {
    const { telemetry, events } = recording();
    telemetry.loadEnded({ remote: 'news', id: 'news/NewsPage', ms: 120, retried: false, ok: true });
    telemetry.errorPage('/news', 500, 'news');
    telemetry.reloaded('/news?from=mail');
    expect(events).toEqual([
      { kind: 'load', remote: 'news', build: 'n-1', phase: 'expose', outcome: 'ok', ms: 120 },
      { kind: 'error-page', route: '/news', status: 500, remote: 'news', build: 'n-1' },
      { kind: 'reload', route: '/news', remote: 'news', build: 'n-1' },
    ]);
  });

  it("attributes a vital to the remote's part of the page, on its route", () => {
    const { builds } = recording();
    document.body.innerHTML = `<main><div data-part="news"><h1 id="title">News</h1></div></main>`;
    const parts = pageParts(CONFIGURED);
    const part = parts.partOf(document.getElementById('title'));
    const context = { routes: createRouteTimeline(TABLE, '/news'), builds, parts };
    const event = paintVitalEvent({ name: 'LCP', value: 900, part }, context);
    expect(telemetryEventSchema.parse(event)).toEqual(event);
    expect(event).toEqual({ kind: 'vital', name: 'LCP', value: 900, route: '/news', remote: 'news', build: 'n-1' });
  });

  it('counts a name no configured remote has as the host', () => {
    document.body.innerHTML = `<div data-part="intruder"><p id="odd">?</p></div>`;
    expect(pageParts(CONFIGURED).partOf(document.getElementById('odd'))).toBe('host');
  });
});
