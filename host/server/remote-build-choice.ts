/**
 * Which build of each remote a request gets: a verified preview's pin, else its cohort's build in
 * the remote's deployment; cohorts are given here too (docs/decisions/0030-progressive-delivery.md).
 */
import { randomInt } from 'node:crypto';
import { serverLog } from 'server/log';
import { boundedLogOnce } from 'server/log-once';
import { verifyPreview } from 'server/preview-token';
import {
  assignedBuild,
  buildManifestUrl,
  COHORT_COOKIE,
  COHORT_MAX_AGE_S,
  COHORT_VALUES,
  fallbackBuild,
  isRevoked,
  isUnsettled,
  parseCohort,
  previewCookieName,
  REMOTE_BUILDS_PATH,
  type Channel,
  type RemoteBuildsAnswer,
} from 'shared/deployment';
import { REMOTE_NAMES } from 'shared/remotes';
import type { RuntimeConfig } from 'shared/runtime-config';
import type { RemoteSources } from './remote-sources';
import type { RemoteDeployment, RemoteSnapshot } from './remote-snapshot';

export type BuildChannel = Channel | 'preview';

export const BUILD_CHANNELS: readonly BuildChannel[] = ['stable', 'canary', 'preview'];

export interface RemoteBuild {
  id: string;
  channel: BuildChannel;
  /** Served from the remote's root; any other from its own copy. */
  atRoot: boolean;
  snapshot: RemoteSnapshot | undefined;
  /** Only one whose copy was found. */
  fallback?: string;
}

export interface BuildChoice {
  builds: Partial<Record<string, RemoteBuild>>;
  /** The page is this browser's own, never kept or shared. */
  pinned: boolean;
  /** It changes with time alone, so it is part of `key`. */
  checkOnNavigation: boolean;
  /** Equal exactly when two requests' pages are (page-cache.ts). */
  key: string;
}

export type BuildSources = Pick<RemoteSources, 'snapshot'> & Partial<Pick<RemoteSources, 'deployment' | 'pinned'>>;

export type RequestCookies = Readonly<Record<string, string | undefined>>;

export function requestCohort(cookies: RequestCookies): number | undefined {
  return parseCohort(cookies[COHORT_COOKIE]);
}

export function newCohort(): number {
  return randomInt(0, COHORT_VALUES);
}

export function cohortCookie(cohort: number, https: boolean): string {
  const secure = https ? '; Secure' : '';
  return `${COHORT_COOKIE}=${cohort}; Path=/; Max-Age=${COHORT_MAX_AGE_S}; SameSite=Lax; HttpOnly${secure}`;
}

/** For sources that know only snapshots. */
function deploymentOf(snapshot: RemoteSnapshot | undefined): RemoteDeployment | undefined {
  if (!snapshot) return undefined;
  return {
    state: { id: snapshot.buildId, timestamp: 0 },
    builds: new Map([[snapshot.buildId, snapshot]]),
    copies: new Set(),
  };
}

/** A pinned build gets no fallback: a gate's page that quietly loaded another would pass a broken build. */
export function chooseBuilds(
  deployment: (remote: string) => RemoteDeployment | undefined,
  cohort: number | undefined,
  pin?: { remote: string; snapshot: RemoteSnapshot },
  now: number = Date.now(),
  remotes: readonly string[] = REMOTE_NAMES,
): BuildChoice {
  const builds: BuildChoice['builds'] = {};
  const key: unknown[] = [];
  let checkOnNavigation = false;
  for (const remote of remotes) {
    const current = deployment(remote);
    if (current && isUnsettled(current.state, current.changedAt, now)) checkOnNavigation = true;
    if (pin?.remote === remote) {
      const { snapshot } = pin;
      const atRoot = current !== undefined && current.builds.get(current.state.id) === snapshot;
      builds[remote] = { id: snapshot.buildId, channel: 'preview', atRoot, snapshot };
      continue;
    }
    if (!current) {
      key.push(null);
      continue;
    }
    const assigned = assignedBuild(current.state, cohort, remote);
    const fallback = fallbackBuild(current.state, assigned);
    const build: RemoteBuild = {
      id: assigned.id,
      channel: assigned.channel,
      atRoot: assigned.channel === 'stable',
      snapshot: current.builds.get(assigned.id),
    };
    if (fallback !== undefined && current.copies.has(fallback)) build.fallback = fallback;
    builds[remote] = build;
    key.push([build.id, build.atRoot, build.fallback ?? null]);
  }
  key.push(checkOnNavigation);
  return { builds, pinned: pin !== undefined, checkOnNavigation, key: JSON.stringify(key) };
}

/** A page's inline configuration: each remote's URL, id and fallback are its chosen build's. */
export function configWithBuilds(config: RuntimeConfig, choice: BuildChoice): RuntimeConfig {
  const remotes = { ...config.remotes };
  const remoteBuilds: NonNullable<RuntimeConfig['remoteBuilds']> = {};
  const remoteFallbacks: NonNullable<RuntimeConfig['remoteFallbacks']> = {};
  for (const [remote, build] of Object.entries(choice.builds)) {
    const root = config.remotes[remote];
    if (!build || root === undefined) continue;
    if (!build.atRoot) remotes[remote] = buildManifestUrl(root, build.id);
    remoteBuilds[remote] = build.id;
    if (build.fallback !== undefined) remoteFallbacks[remote] = buildManifestUrl(root, build.fallback);
  }
  if (Object.keys(remoteBuilds).length === 0) return config;
  return {
    ...config,
    remotes,
    remoteBuilds,
    ...(Object.keys(remoteFallbacks).length > 0 ? { remoteFallbacks } : {}),
    buildsUrl: REMOTE_BUILDS_PATH,
    ...(choice.checkOnNavigation ? { checkBuildsOnNavigation: true } : {}),
  };
}

export function buildsAnswer(choice: BuildChoice): RemoteBuildsAnswer {
  const builds: Record<string, string> = {};
  for (const [remote, build] of Object.entries(choice.builds)) if (build) builds[remote] = build.id;
  return choice.checkOnNavigation ? { builds, checkOnNavigation: true } : { builds };
}

export interface BuildChooserOptions {
  sources?: BuildSources;
  /** A remote without one cannot be pinned. */
  previewKeys?: Readonly<Partial<Record<string, readonly string[]>>>;
  log?: (message: string) => void;
  now?: () => number;
  remotes?: readonly string[];
}

/** A forged token's text is its sender's to choose. */
const MAX_LOGGED_PREVIEW_REASONS = 64;

export interface PageOrigin {
  https: boolean;
  origin: string;
}

/** A preview cookie that does not verify for the page's origin pins nothing, and the log says why once. */
export function createBuildChooser({
  sources,
  previewKeys = {},
  log = (message) => serverLog().warn(message),
  now = Date.now,
  remotes = REMOTE_NAMES,
}: BuildChooserOptions): (
  cookies: RequestCookies,
  cohort: number | undefined,
  page: PageOrigin,
) => Promise<BuildChoice> {
  const deployment = (remote: string) =>
    sources?.deployment ? sources.deployment(remote) : deploymentOf(sources?.snapshot(remote));
  const logOnce = boundedLogOnce(log, MAX_LOGGED_PREVIEW_REASONS);

  async function pinOf(
    token: string | undefined,
    page: PageOrigin,
  ): Promise<{ remote: string; snapshot: RemoteSnapshot } | undefined> {
    if (token === undefined) return undefined;
    const verified = verifyPreview(token, previewKeys, Math.floor(now() / 1000), page.origin);
    if (!verified.pin) {
      logOnce(`a ${previewCookieName(page.https)} cookie pins nothing: ${verified.reason}`);
      return undefined;
    }
    const { remote, buildId } = verified.pin;
    if (!remotes.includes(remote)) return undefined;
    if (isRevoked(deployment(remote)?.state, buildId)) {
      logOnce(
        `a ${previewCookieName(page.https)} cookie pins nothing: the ${remote} remote's build ${buildId} is revoked`,
      );
      return undefined;
    }
    const snapshot = sources?.pinned ? await sources.pinned(remote, buildId) : undefined;
    return snapshot && { remote, snapshot };
  }

  return async (cookies, cohort, page) =>
    chooseBuilds(deployment, cohort, await pinOf(cookies[previewCookieName(page.https)], page), now(), remotes);
}
