/**
 * A remote's switch to its last known good build, as telemetry: the failed load counts against
 * the build that failed, the switch names both builds, and what follows (its loads, its error
 * pages) is labelled with the build the page then runs. Each event as the API's contract takes it.
 */
import { telemetryEventSchema } from 'shared/api/contract';
import type { TelemetryEvent } from 'shared/telemetry';
import { createLoadPhases } from './load-phases';
import { createPageTelemetry } from './page-telemetry';
import { createBuildAttribution } from './build-attribution';
import { REMOTE_NAMES } from 'shared/remotes';
import { RouteTable } from '../route-table/route-table';

const GIFTS = 'http://localhost:3001';

it('reports the failed build, the switch and the fallback build’s load and error pages', () => {
  const events: TelemetryEvent[] = [];
  const builds = createBuildAttribution('host-b7', REMOTE_NAMES);
  const telemetry = createPageTelemetry({
    record: (event) => events.push(event),
    builds,
    routes: RouteTable.registry(),
    phases: createLoadPhases(),
    fetch,
  });
  builds.record('gifts', `${GIFTS}/builds/c2/`, 'c2', new Map());
  const error = Object.assign(new Error(`Loading chunk 7 failed.\n(missing: ${GIFTS}/builds/c2/7.js)`), {
    name: 'ChunkLoadError',
  });

  telemetry.fellBack({ remote: 'gifts', id: 'gifts/GamePage', error, to: 's1' });
  // The loading plugin reads the fallback's manifest; the load ends with its page.
  builds.record('gifts', `${GIFTS}/builds/s1/`, 's1', new Map());
  telemetry.loadEnded({ remote: 'gifts', id: 'gifts/GamePage', ms: 900, retried: false, ok: true });
  telemetry.errorPage('/game', 500, 'gifts');

  expect(events).toEqual([
    { kind: 'load', remote: 'gifts', build: 'c2', phase: 'chunk', outcome: 'failed', ms: 0 },
    { kind: 'fallback', remote: 'gifts', from: 'c2', to: 's1' },
    { kind: 'load', remote: 'gifts', build: 's1', phase: 'expose', outcome: 'ok', ms: 900 },
    { kind: 'error-page', route: '/game', status: 500, remote: 'gifts', build: 's1' },
  ]);
  for (const event of events) expect(telemetryEventSchema.parse(event)).toEqual(event);
});
