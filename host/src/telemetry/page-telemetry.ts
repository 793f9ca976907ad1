/** What the host's code reports as telemetry events; every label is from a known set. */
import type { LoadEvent, TelemetryEvent } from 'shared/telemetry';
import { HOST_PART, UNKNOWN_BUILD, type LoadPhase } from 'shared/telemetry-values';
import type { FallbackEnd, LoadEnd } from '../federation/remote-loader';
import type { RouteTable } from '../route-table/route-table';
import type { refusedForIntegrity } from './integrity-check';
import { classifyFailure, type ClassifiedFailure } from './load-outcome';
import type { LoadPhases } from './load-phases';
import type { BuildAttribution } from './build-attribution';
import { routeOf, routePartOf } from './route-timeline';

export interface PageTelemetry {
  loadEnded(end: LoadEnd): void;
  loadRetried(error: unknown): void;
  /** The failed load, as a load of the failed build, and the switch. */
  fellBack(fallback: FallbackEnd): void;
  reloaded(path: string): void;
  errorPage(pathname: string, status: number, part: string | undefined): void;
  renderFailed(remote: string): void;
  /** A ChunkLoadError: of `remote`'s page, unless its URL is another remote's. */
  chunkFailed(error: unknown, remote: string | undefined): void;
}

export interface PageTelemetryOptions {
  record(event: TelemetryEvent): void;
  builds: BuildAttribution;
  routes: RouteTable;
  phases: Pick<LoadPhases, 'phaseOf'>;
  fetch: typeof fetch;
  /** Its own chunk unless a test gives it at once. */
  integrityCheck?: () => Promise<{ refusedForIntegrity: typeof refusedForIntegrity }>;
}

const MAX_MS = 10 * 60_000;

export function createPageTelemetry({
  record,
  builds,
  routes,
  phases,
  fetch,
  integrityCheck = () => import(/* webpackChunkName: "integrity-check" */ './integrity-check'),
}: PageTelemetryOptions): PageTelemetry {
  /** By URL: whether the browser refused them for their integrity. */
  const answers = new Map<string, Promise<boolean>>();
  const refused = new Set<string | undefined>();

  /** Asks again, once, for a failed script the manifest gives an integrity for. */
  function diagnose(script: string | undefined): Promise<boolean> | undefined {
    const integrity = script && builds.integrityOf(script);
    if (!script || !integrity) return undefined;
    let answer = answers.get(script);
    if (!answer) {
      answer = integrityCheck()
        .then(({ refusedForIntegrity }) => refusedForIntegrity(script, integrity, fetch))
        .then(
          (yes) => yes && !!refused.add(script),
          () => false,
        );
      answers.set(script, answer);
    }
    return answer;
  }

  function recordLoad(remote: string, build: string, ms: number, { phase, outcome, script }: ClassifiedFailure): void {
    const event: LoadEvent = { kind: 'load', remote, build, phase, outcome, ms: Math.min(Math.round(ms), MAX_MS) };
    // Asked from the first failed attempt, so the answer is known before the reload guard acts.
    if (refused.has(script)) event.outcome = 'integrity';
    record(event);
    void diagnose(script)?.then((yes) => {
      if (yes) event.outcome = 'integrity';
    });
  }

  function failure(remote: string, build: string, ms: number, error: unknown, phase: LoadPhase): void {
    recordLoad(remote, build, ms, classifyFailure(error, phase));
  }

  return {
    loadEnded({ remote, id, ms, retried, ok, error }) {
      const build = builds.buildOf(remote);
      if (ok) recordLoad(remote, build, ms, { phase: 'expose', outcome: retried ? 'recovered' : 'ok' });
      else failure(remote, build, ms, error, phases.phaseOf(id));
    },
    loadRetried(error) {
      diagnose(classifyFailure(error, 'entry').script);
    },
    fellBack({ remote, id, error, to }) {
      const from = builds.buildOf(remote);
      failure(remote, from, 0, error, phases.phaseOf(id));
      record({ kind: 'fallback', remote, from, to: to ?? UNKNOWN_BUILD });
    },
    reloaded(path) {
      const pathname = path.split(/[?#]/)[0] ?? path;
      const part = routePartOf(routes, pathname);
      record({ kind: 'reload', route: routeOf(routes, pathname), remote: part, build: builds.buildOf(part) });
    },
    errorPage(pathname, status, part) {
      const remote = part ?? HOST_PART;
      if (status >= 400 && status < 600)
        record({ kind: 'error-page', route: routeOf(routes, pathname), status, remote, build: builds.buildOf(remote) });
    },
    renderFailed(remote) {
      recordLoad(remote, builds.buildOf(remote), 0, { phase: 'render', outcome: 'failed' });
    },
    chunkFailed(error, remote) {
      const { script } = classifyFailure(error, 'chunk');
      const owner = script === undefined ? undefined : builds.ownerOf(script);
      const part = owner?.remote ?? remote;
      if (part) failure(part, owner?.build ?? builds.buildOf(part), 0, error, 'chunk');
    },
  };
}
