/**
 * What the host's code reports, as telemetry events: each remote load's end (from the remote
 * loader), a remote's switch to its last known good build, the reload guard's reloads, the error
 * pages shown (with the build of the route's part), a remote's page failing to render and the
 * chunks a page fails to download while it renders. Every label is a known value: a part (a
 * configured remote, or the host), a build id a manifest gave, a route pattern of the page's table.
 */
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
  /** A `remotes.load()` ended (remote-loader.ts). */
  loadEnded(end: LoadEnd): void;
  /** An attempt of a load failed and will be tried again. */
  loadRetried(error: unknown): void;
  /**
   * A remote's build failed after the retries and the page switches to its fallback: the failed
   * load, as a load of the failed build, and the switch. Told before the fallback's manifest is read.
   */
  fellBack(fallback: FallbackEnd): void;
  /** The reload guard reloads the page to `path`. */
  reloaded(path: string): void;
  /** An error page is shown on `pathname`: its status and the part whose page it replaces. */
  errorPage(pathname: string, status: number, part: string | undefined): void;
  /** A remote's page threw while rendering. */
  renderFailed(remote: string): void;
  /** A download failed while a page rendered (ChunkLoadError): of `remote`'s page, unless its URL is another remote's. */
  chunkFailed(error: unknown, remote: string | undefined): void;
}

export interface PageTelemetryOptions {
  record(event: TelemetryEvent): void;
  builds: BuildAttribution;
  /** The page's route table: the route and part a path names. */
  routes: RouteTable;
  phases: Pick<LoadPhases, 'phaseOf'>;
  fetch: typeof fetch;
  /** Loads the check of a failed script's bytes; its own chunk unless a test gives it at once. */
  integrityCheck?: () => Promise<{ refusedForIntegrity: typeof refusedForIntegrity }>;
}

/** The contract's bound on a duration. */
const MAX_MS = 10 * 60_000;

export function createPageTelemetry({
  record,
  builds,
  routes,
  phases,
  fetch,
  integrityCheck = () => import(/* webpackChunkName: "integrity-check" */ './integrity-check'),
}: PageTelemetryOptions): PageTelemetry {
  /** The failed scripts asked for again, by URL: whether the browser refused them for their integrity. */
  const answers = new Map<string, Promise<boolean>>();
  /** Those the answer has said it refused. */
  const refused = new Set<string | undefined>();

  /** Asks again, once, for a failed script the manifest gives an integrity for. */
  function diagnose(script: string | undefined): Promise<boolean> | undefined {
    const integrity = script && builds.integrityOf(script);
    if (!script || !integrity) return undefined;
    let answer = answers.get(script);
    if (!answer) {
      // Its code loads only now, apart from the page's first scripts; unloadable, no answer.
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
    // A failed script is asked for again from its first failed attempt (loadRetried), so the
    // answer is known by the time the retries are over and the reload guard may reload at once.
    // Without one yet, the event waits in the queue and is corrected there when it comes.
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
      // A chunk of the host's own page (no route's remote, none at a remote's address) is no remote's load.
      if (part) failure(part, owner?.build ?? builds.buildOf(part), 0, error, 'chunk');
    },
  };
}
