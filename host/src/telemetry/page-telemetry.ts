/**
 * What the host's code reports, as telemetry events: each remote load's end (from the remote
 * loader), the reload guard's reloads, the error pages shown, a remote's page failing to render
 * and the chunks a page fails to download while it renders. Every label is a known value: a part
 * (a remote of the registry, or the host), a build id a manifest gave, a route pattern.
 */
import { createContext, useContext } from 'react';
import { errorMessage } from 'shared/http-error';
import { REMOTE_NAMES } from 'shared/remotes';
import { HOST_PART, type TelemetryEvent } from 'shared/telemetry';
import type { LoadEnd } from '../federation/remote-loader';
import { classifyFailure, type ClassifiedFailure } from './load-outcome';
import type { LoadPhases } from './load-phases';
import type { RemoteBuilds } from './remote-builds';
import { routeOf, routePartOf } from './route-timeline';

export interface PageTelemetry {
  /** A `remotes.load()` ended (remote-loader.ts). */
  loadEnded(end: LoadEnd): void;
  /** The reload guard reloads the page to `path`. */
  reloaded(path: string): void;
  /** An error page is shown on `pathname`: its status and the part whose page it replaces. */
  errorPage(pathname: string, status: number, part: string | undefined): void;
  /** A remote's page threw while rendering. */
  renderFailed(remote: string): void;
  /** A download failed while a page rendered (ChunkLoadError): of `remote`'s page, unless its URL is another remote's. */
  chunkFailed(error: unknown, remote: string | undefined): void;
}

const ignore = () => undefined;
/** With telemetry off, and in tests that do not look at it. */
export const NO_TELEMETRY: PageTelemetry = {
  loadEnded: ignore,
  reloaded: ignore,
  errorPage: ignore,
  renderFailed: ignore,
  chunkFailed: ignore,
};

export const TelemetryContext = createContext<PageTelemetry>(NO_TELEMETRY);

export function usePageTelemetry(): PageTelemetry {
  return useContext(TelemetryContext);
}

export interface PageTelemetryOptions {
  record(event: TelemetryEvent): void;
  builds: RemoteBuilds;
  phases: Pick<LoadPhases, 'phaseOf'>;
  fetch: typeof fetch;
  /** How long the browser took over the download of `url` (its resource timing). */
  durationOf?: (url: string) => number | undefined;
}

/** The failed download's URL in webpack's ChunkLoadError. */
const CHUNK_URL = /Loading (?:CSS )?chunk \S+ failed[^(]*\(\w+: ([^)\s]+)\)/;
/** The contract's bound on a duration. */
const MAX_MS = 10 * 60_000;

const isRemote = (part: string | undefined): part is string =>
  part !== undefined && (REMOTE_NAMES as readonly string[]).includes(part);

export function createPageTelemetry(options: PageTelemetryOptions): PageTelemetry {
  const { record, builds } = options;
  const checks = { integrityOf: builds.integrityOf, fetch: options.fetch };
  const recordLoad = (remote: string, build: string, ms: number, { phase, outcome }: ClassifiedFailure) =>
    record({ kind: 'load', remote, build, phase, outcome, ms: Math.min(Math.max(Math.round(ms), 0), MAX_MS) });

  return {
    loadEnded({ remote, id, ms, retried, ok, error }) {
      const build = builds.buildOf(remote);
      if (ok) {
        recordLoad(remote, build, ms, { phase: 'expose', outcome: retried ? 'recovered' : 'ok' });
      } else {
        void classifyFailure(error, options.phases.phaseOf(id), checks).then((failure) =>
          recordLoad(remote, build, ms, failure),
        );
      }
    },
    reloaded(path) {
      const { pathname } = new URL(path, 'http://page.invalid');
      const part = routePartOf(pathname);
      record({ kind: 'reload', route: routeOf(pathname), remote: part, build: builds.buildOf(part) });
    },
    errorPage(pathname, status, part) {
      if (Number.isInteger(status) && status >= 400 && status <= 599)
        record({ kind: 'error-page', route: routeOf(pathname), status, remote: part ?? HOST_PART });
    },
    renderFailed(remote) {
      if (isRemote(remote)) recordLoad(remote, builds.buildOf(remote), 0, { phase: 'render', outcome: 'failed' });
    },
    chunkFailed(error, remote) {
      const url = CHUNK_URL.exec(errorMessage(error))?.[1];
      const owner = url === undefined ? undefined : builds.ownerOf(url);
      const part = owner?.remote ?? remote;
      // The host's own chunks are not a remote's load.
      if (!isRemote(part)) return;
      const ms = (url && options.durationOf?.(url)) || 0;
      void classifyFailure(error, 'chunk', checks).then((failure) =>
        recordLoad(part, owner?.build ?? builds.buildOf(part), ms, failure),
      );
    },
  };
}
