/**
 * Which build of each remote a request gets (docs/decisions/0030-progressive-delivery.md): the
 * build a verified preview pins (`gb_preview`, signed with the remote's preview key: the gate
 * before promotion), else the build the visitor's cohort falls on in the remote's deployment
 * (`gb_cohort`: a canary's share of visitors gets the canary, the others the stable build).
 * Cohorts are given here too: a number, the same for many visitors, in a cookie a year long, so a
 * visitor keeps their builds from one visit to the next. The page's inline configuration then
 * names each remote's build, where it is, and the build it falls back to (shared/runtime-config).
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

/** How a page got a remote's build: its cohort's (stable or canary), or a preview's pin. */
export type BuildChannel = Channel | 'preview';

export const BUILD_CHANNELS: readonly BuildChannel[] = ['stable', 'canary', 'preview'];

/** One remote's build for one request. */
export interface RemoteBuild {
  id: string;
  channel: BuildChannel;
  /** Served from the remote's root, as the stable build is; any other from its own copy (`builds/{id}/`). */
  atRoot: boolean;
  /** What the page preloads and shows from it; none while it has not been read. */
  snapshot: RemoteSnapshot | undefined;
  /** The build the page loads when this one cannot be loaded: only one whose copy was found. */
  fallback?: string;
}

/** Every remote's build for one request. */
export interface BuildChoice {
  builds: Partial<Record<string, RemoteBuild>>;
  /** A preview pins one of them: the page is this browser's own, never kept or shared. */
  pinned: boolean;
  /**
   * A remote's deployment is unsettled (shared/deployment's isUnsettled): the page asks for its
   * builds on each navigation. It changes with time alone, so it is part of `key`.
   */
  checkOnNavigation: boolean;
  /** The same for two requests exactly when their pages are the same (page-cache.ts); pinned or not aside. */
  key: string;
}

/** The remote sources as the choice reads them: a source that only knows snapshots serves its stable build. */
export type BuildSources = Pick<RemoteSources, 'snapshot'> & Partial<Pick<RemoteSources, 'deployment' | 'pinned'>>;

/** A request's cookies by name, as @fastify/cookie parses its Cookie header. */
export type RequestCookies = Readonly<Record<string, string | undefined>>;

/** The cohort a request's cookie gives, or undefined for none or one that is not a cohort. */
export function requestCohort(cookies: RequestCookies): number | undefined {
  return parseCohort(cookies[COHORT_COOKIE]);
}

/** A new visitor's cohort: any of the COHORT_VALUES numbers alike. */
export function newCohort(): number {
  return randomInt(0, COHORT_VALUES);
}

/** The Set-Cookie of a cohort: the whole site, a year, never read by scripts, sent only over HTTPS when the page came so. */
export function cohortCookie(cohort: number, https: boolean): string {
  const secure = https ? '; Secure' : '';
  return `${COHORT_COOKIE}=${cohort}; Path=/; Max-Age=${COHORT_MAX_AGE_S}; SameSite=Lax; HttpOnly${secure}`;
}

/** A deployment of one build, for sources that know only snapshots (tests, a pinned host's stand-ins). */
function deploymentOf(snapshot: RemoteSnapshot | undefined): RemoteDeployment | undefined {
  if (!snapshot) return undefined;
  return {
    state: { id: snapshot.buildId, timestamp: 0 },
    builds: new Map([[snapshot.buildId, snapshot]]),
    copies: new Set(),
  };
}

/**
 * Each remote's build for a visitor of `cohort` (none: the stable builds), with `pin`'s remote
 * pinned to the snapshot read for it. A pinned build gets no fallback: the gate checks that build,
 * and a page that quietly loaded another would pass a broken one.
 */
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
    // The snapshot's identity is the page cache's to check (a build read again is a new one).
    key.push([build.id, build.atRoot, build.fallback ?? null]);
  }
  key.push(checkOnNavigation);
  return { builds, pinned: pin !== undefined, checkOnNavigation, key: JSON.stringify(key) };
}

/**
 * The runtime configuration a page of `choice` carries inline: each remote's URL is its build's
 * (the root's manifest for the stable build, the build's own copy otherwise), with its id, its
 * fallback and where the page asks for its builds later. `config` is the view's (its URLs at the
 * page's hostname), so are the URLs made from it. No remote read yet: `config` as it is.
 */
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

/** What `GET /remote-builds.json` answers for a choice: each remote's build id. */
export function buildsAnswer(choice: BuildChoice): RemoteBuildsAnswer {
  const builds: Record<string, string> = {};
  for (const [remote, build] of Object.entries(choice.builds)) if (build) builds[remote] = build.id;
  return choice.checkOnNavigation ? { builds, checkOnNavigation: true } : { builds };
}

export interface BuildChooserOptions {
  sources?: BuildSources;
  /** Each remote's preview keys (REMOTE_<NAME>_PREVIEW_KEY); a remote without one cannot be pinned. */
  previewKeys?: Readonly<Partial<Record<string, readonly string[]>>>;
  log?: (message: string) => void;
  /** Now, in ms since the epoch (tests). */
  now?: () => number;
  /** The configured remotes (the runtime configuration's, at most MAX_REMOTES); the registry's by default. */
  remotes?: readonly string[];
}

/** Preview failures logged once each at most, then no more: a forged token's text is its sender's to choose. */
const MAX_LOGGED_PREVIEW_REASONS = 64;

/** Where a page is served: the preview cookie it reads, and the audience a preview token must name. */
export interface PageOrigin {
  https: boolean;
  /** The page's origin, such as `https://giftbox.example`. */
  origin: string;
}

/**
 * The builds of one request, from its cookies, its cohort (given, or being given; none:
 * the stable builds) and its origin: a preview cookie (the `__Host-` one over https) that
 * verifies for this origin pins its remote to its build when that build can be read; one that
 * does not pins nothing, and the server says why in its log, once per reason.
 */
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
    // A build that cannot be read is logged by the sources, with why.
    const snapshot = sources?.pinned ? await sources.pinned(remote, buildId) : undefined;
    return snapshot && { remote, snapshot };
  }

  return async (cookies, cohort, page) =>
    chooseBuilds(deployment, cohort, await pinOf(cookies[previewCookieName(page.https)], page), now(), remotes);
}
