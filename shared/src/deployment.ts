/**
 * A remote's deployment: which of its builds visitors get. It is the remote's `builds/latest.json`
 * (`{ id, timestamp }`, the stable build, as every reader has always read it), with two optional
 * fields the deploy commands write beside them:
 *
 * - `previous`: the stable build before this one, which a page loads when the stable build cannot
 *   be loaded (its last known good);
 * - `canary`: a build under trial, `{ id, percent, since }`: the visitors whose cohort falls under
 *   `percent` get it, the others the stable build; `judgedAt`/`judgedBy` say when and by whom it
 *   was last judged (optional);
 * - `revoked`: builds withdrawn for a known fault (`deploy --revoke`), newest first, at most
 *   MAX_REVOKED: never a fallback, a canary or a preview's pin. A reader that does not know the
 *   field still reads a deployment that names none of them otherwise.
 *
 * One file, replaced in one rename, so a reader never sees a canary without its stable build.
 * The host's server reads it and assigns each visitor a build of each remote by their cohort
 * (a first-party cookie holding a number, the same for many visitors: nothing personal); a page
 * is told the builds it was given and whom to ask whether they changed. Plain values: the
 * host's server, the API, the deploy commands and their tests read this module, never zod.
 */
import type { BuildInfo } from './build-info';

/** The folder of a remote's build files, beside its `mf-manifest.json`. */
export const BUILDS_DIR = 'builds';
/** The host's: its folder is the site's root, whose paths are its pages'. */
export const HOST_BUILDS_DIR = '_app/builds';
/** The deployment's file name in a builds folder. */
export const DEPLOYMENT_FILE_NAME = 'latest.json';
/** The history's file name in a builds folder. */
export const HISTORY_FILE_NAME = 'history.json';
/** The folder of each build's meta file (`meta/{id}.json`) in a builds folder. */
export const META_DIR_NAME = 'meta';
/** Where a remote's deployment is, beside its `mf-manifest.json`. */
export const DEPLOYMENT_FILE = `${BUILDS_DIR}/${DEPLOYMENT_FILE_NAME}`;
/** Where the host's deployment is, from the site's root. */
export const HOST_DEPLOYMENT_FILE = `${HOST_BUILDS_DIR}/${DEPLOYMENT_FILE_NAME}`;

export interface CanaryState {
  id: string;
  /** The share of visitors, 0 to 100, who get the canary build. */
  percent: number;
  /** When the canary started (ms since the epoch): its telemetry counts from then. */
  since: number;
  /**
   * When a judge (the release run) last analysed the canary or said it is still at it (ms since
   * the epoch), and who: the API exports it, so a canary nobody judges raises an alert.
   */
  judgedAt?: number;
  judgedBy?: string;
}

export interface DeploymentState extends BuildInfo {
  /** The stable build before `id`: what a page loads when `id` cannot be loaded. */
  previous?: string;
  canary?: CanaryState;
  /** Builds withdrawn for a known fault: no visitor is given one, in any role. */
  revoked?: string[];
}

/** The revoked builds a deployment names at most: the oldest drop off once their copies are pruned. */
export const MAX_REVOKED = 50;

/** Whether `state` withdraws build `id` (`revoked`). */
export function isRevoked(state: Pick<DeploymentState, 'revoked'> | undefined, id: string): boolean {
  return state?.revoked?.includes(id) ?? false;
}

/**
 * What a deploy accepts as a build id: it names a folder (`builds/{id}/`) and a file
 * (`builds/meta/{id}.json`), so one path segment of plain characters.
 */
export const BUILD_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** The names a builds folder already holds, so no build may take them. */
export const RESERVED_BUILD_IDS: readonly string[] = [META_DIR_NAME, DEPLOYMENT_FILE_NAME, HISTORY_FILE_NAME];

export function isBuildId(value: unknown): value is string {
  return typeof value === 'string' && BUILD_ID_PATTERN.test(value) && !RESERVED_BUILD_IDS.includes(value);
}

/**
 * How many builds `history.json` names at most (`{ "ids": [...] }`, newest first): the builds made
 * current in a deployment, so a reader started after several deploys still knows the recent ones.
 */
export const HISTORY_LENGTH = 20;

/** The build ids a `history.json` names, newest first; undefined when it is not a history. */
export function readBuildHistory(value: unknown): string[] | undefined {
  const ids = (value as { ids?: unknown } | null)?.ids;
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : undefined;
}

/** The history once `id` is made current: first, once, at most HISTORY_LENGTH, as its file's text. */
export function buildHistoryText(id: string, earlier: readonly string[]): string {
  const ids = [...new Set([id, ...earlier])].slice(0, HISTORY_LENGTH);
  return `${JSON.stringify({ ids })}\n`;
}

/** The revoked builds a `revoked` field names: build ids only, at most MAX_REVOKED, the stable build never. */
function readRevoked(value: unknown, stable: string): string[] {
  if (!Array.isArray(value)) return [];
  const ids = value.filter((id): id is string => isBuildId(id) && id !== stable);
  return [...new Set(ids)].slice(0, MAX_REVOKED);
}

/** A canary's last judgement, when it names a time: its judge's name only as plain short text. */
function readJudgement(
  canary: Partial<Record<keyof CanaryState, unknown>>,
): Pick<CanaryState, 'judgedAt' | 'judgedBy'> {
  if (typeof canary.judgedAt !== 'number' || !Number.isFinite(canary.judgedAt)) return {};
  const by = canary.judgedBy;
  return typeof by === 'string' && by.length <= 200
    ? { judgedAt: canary.judgedAt, judgedBy: by }
    : { judgedAt: canary.judgedAt };
}

/**
 * A deployment read from `builds/latest.json`, or undefined when it names no build. Fields it
 * does not understand, or that are malformed (a canary without a valid id or percent), are left
 * out: a reader then serves the stable build to everyone, never a half-read canary. A revoked
 * build is left out of `previous` and `canary` too, whatever wrote them.
 */
export function readDeploymentState(value: unknown): DeploymentState | undefined {
  const raw = value as Partial<Record<keyof DeploymentState, unknown>> | null;
  if (typeof raw !== 'object' || raw === null || !isBuildId(raw.id)) return undefined;
  const state: DeploymentState = { id: raw.id, timestamp: typeof raw.timestamp === 'number' ? raw.timestamp : 0 };
  const revoked = readRevoked(raw.revoked, raw.id);
  if (revoked.length > 0) state.revoked = revoked;
  if (isBuildId(raw.previous) && raw.previous !== raw.id && !revoked.includes(raw.previous))
    state.previous = raw.previous;
  const canary = raw.canary as Partial<Record<keyof CanaryState, unknown>> | null | undefined;
  if (
    typeof canary === 'object' &&
    canary !== null &&
    isBuildId(canary.id) &&
    canary.id !== raw.id &&
    !revoked.includes(canary.id) &&
    typeof canary.percent === 'number' &&
    Number.isInteger(canary.percent) &&
    canary.percent >= 0 &&
    canary.percent <= 100
  ) {
    state.canary = {
      id: canary.id,
      percent: canary.percent,
      since: typeof canary.since === 'number' ? canary.since : 0,
      ...readJudgement(canary),
    };
  }
  return state;
}

/** The cookie that holds a visitor's cohort: `gb_cohort=<0…COHORT_VALUES-1>`. */
export const COHORT_COOKIE = 'gb_cohort';
/** A cohort is one of this many numbers: many visitors share each, so it identifies nobody. */
export const COHORT_VALUES = 10_000;
/** How long the cohort cookie lasts (seconds): a year, renewed on each page. */
export const COHORT_MAX_AGE_S = 365 * 24 * 60 * 60;

/** A cohort from its cookie's value, or undefined for anything but a plain number in range. */
export function parseCohort(raw: string | undefined): number | undefined {
  if (raw === undefined || !/^\d{1,5}$/.test(raw)) return undefined;
  const cohort = Number(raw);
  return cohort < COHORT_VALUES ? cohort : undefined;
}

/** FNV-1a, 32 bits: the same number in every runtime, for any string. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/**
 * Where a cohort falls for one canary of one remote, 0 to 99. The canary's id is part of it, so
 * each canary tries a different share of visitors (not always the same ones); for one canary it
 * never changes, so raising its percent keeps every visitor who already had it.
 */
export function canaryBucket(cohort: number, remote: string, canaryId: string): number {
  return fnv1a(`${cohort}:${remote}:${canaryId}`) % 100;
}

export type Channel = 'stable' | 'canary';

export interface AssignedBuild {
  id: string;
  channel: Channel;
}

/** The build of `remote` a visitor of `cohort` gets; without a cohort, the stable build. */
export function assignedBuild(state: DeploymentState, cohort: number | undefined, remote: string): AssignedBuild {
  const { canary } = state;
  if (canary && cohort !== undefined && canaryBucket(cohort, remote, canary.id) < canary.percent) {
    return { id: canary.id, channel: 'canary' };
  }
  return { id: state.id, channel: 'stable' };
}

/**
 * The build a page falls back to when its own cannot be loaded: a canary's visitor to the stable
 * build, a stable build's visitor to the stable build before it. Undefined when there is none.
 */
export function fallbackBuild(state: DeploymentState, assigned: AssignedBuild): string | undefined {
  const fallback = assigned.channel === 'canary' ? state.id : state.previous;
  return fallback !== assigned.id ? fallback : undefined;
}

/** A build's own copy, which a deploy keeps whole: `builds/{id}/mf-manifest.json` beside the remote's manifest. */
export function buildManifestUrl(remoteManifestUrl: string, id: string): string {
  return new URL(`builds/${encodeURIComponent(id)}/mf-manifest.json`, remoteManifestUrl).href;
}

/**
 * The cookie with which a deploying team pins one remote to one build for one browser (the gate
 * before promotion): `v2~<remote>~<build id>~<expires, s since the epoch>~<host origin>~<signature>`,
 * the signature HMAC-SHA256 of everything before it under one of that remote's preview keys
 * (server/preview-token.ts), base64url. The host's server ignores one it cannot verify.
 */
export const PREVIEW_COOKIE = 'gb_preview';

/**
 * The preview cookie's name on a page served over https or not: over https `__Host-gb_preview`,
 * which a browser keeps only when it is Secure, for the whole host and no other (no Domain), so
 * neither a sibling subdomain nor a page over http can set or read one; the host's server then
 * reads no other.
 */
export function previewCookieName(https: boolean): string {
  return https ? `__Host-${PREVIEW_COOKIE}` : PREVIEW_COOKIE;
}

/**
 * Per visitor, the build of each remote the host's server gives them now (GET, `private,
 * no-store`): a page's version check compares it with the builds it runs.
 */
export const REMOTE_BUILDS_PATH = '/remote-builds.json';

export interface RemoteBuildsAnswer {
  builds: Record<string, string>;
  /**
   * Present and true while a remote's deployment is unsettled (isUnsettled): the page asks for
   * its builds on each navigation, not only at its version check's polls.
   */
  checkOnNavigation?: true;
}

/**
 * How long after a remote's deployment changed (a deploy, a promotion, an abort, a rollback) it
 * counts as unsettled: a change that has just been made is the one most likely to be taken back,
 * and the pages given builds meanwhile should hear of that on their next navigation.
 */
export const UNSETTLED_DEPLOYMENT_MS = 15 * 60_000;

/**
 * Whether pages given builds of a deployment now should ask for their builds on each navigation:
 * while it runs a canary (it will be promoted or aborted), or within UNSETTLED_DEPLOYMENT_MS of
 * its last change (`changedAt`, ms since the epoch; undefined: not known to be recent).
 */
export function isUnsettled(
  state: Pick<DeploymentState, 'canary'>,
  changedAt: number | undefined,
  now: number,
): boolean {
  return state.canary !== undefined || (changedAt !== undefined && now - changedAt < UNSETTLED_DEPLOYMENT_MS);
}
