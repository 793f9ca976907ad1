/**
 * A remote's canary: a build other than the stable one, given to a share of visitors (by their
 * cohort, shared/deployment) while its telemetry is compared with the stable build's. The state
 * is the deployment's `builds/latest.json` (`canary: { id, percent, since }` beside the stable
 * `id` and `previous`), written whole by deployment.ts:
 *
 * - `startCanary` starts a build the folder holds whole (staged by `deploy --stage`, or staged
 *   here from a build folder) at a percent. Refused before anything is written: what is not a
 *   build id, an unknown or incomplete build, a revoked one, the stable build itself, and a
 *   second canary while one runs. Starting the running canary again sets its percent.
 * - `setCanaryPercent` changes the share (0 to 100): a visitor who had the canary keeps it when
 *   the share grows, since their bucket does not change.
 * - `promoteCanary` makes it the stable build: its own copy `builds/{id}/` is published at the
 *   root in a deploy's order, as a rollback publishes one; `latest.json` becomes
 *   `{ id: canary, previous: the old stable }`, with no canary, and the history names it first.
 * - `abortCanary` drops it: every visitor gets the stable build on their next navigation. Its
 *   files stay, as pages still running it need them. The abort, what did it and why are recorded
 *   (canary-aborts.ts) for `rollback --list`.
 * - `recordJudgement` notes in the canary that its judge (the release run) is at it: the API
 *   exports when, and CanaryUnjudged fires when nobody judged a canary for UNJUDGED_AFTER_S.
 *   Starting a canary here starts no judge: the release run adopts a running canary of the build
 *   it releases.
 *
 * Each takes the target's lock (deployment.ts) unless the caller already holds it: the release
 * run holds it across its whole run (`withDeploymentLock`) and calls these.
 */
import { existsSync } from 'node:fs';
import { hostname, userInfo } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { isBuildId, isRevoked, type CanaryState, type DeploymentState } from 'shared/deployment';
import { defineCommand, refuse, statusOrFailure, type CommandLine } from './command-line';
import {
  buildFolder,
  deploy,
  DeployError,
  deployedBuilds,
  META_DIR,
  ownCopyProblem,
  publish,
  readBuild,
  revokedMessage,
  type CliIo,
  type DeployResult,
  type FileAction,
} from './deploy';
import { recordCanaryAbort } from './canary-aborts';
import { UNJUDGED_AFTER_S } from './canary-judge';
import { readDeployment, withDeploymentLock, writeDeployment } from './deployment';

export { readDeployment, withDeploymentLock } from './deployment';

export class CanaryError extends DeployError {
  constructor(message: string) {
    super(message);
    this.name = 'CanaryError';
  }
}

/** A canary's share of visitors: a whole number from 0 to 100. */
export function checkPercent(percent: number): number {
  if (!Number.isInteger(percent) || percent < 0 || percent > 100) {
    throw new CanaryError(`a canary's percent is a whole number from 0 to 100, got ${percent}`);
  }
  return percent;
}

/** The deployment of `target`, refused when it has no stable build. */
async function deploymentOf(target: string): Promise<DeploymentState> {
  const state = await readDeployment(target);
  if (!state) {
    throw new CanaryError(
      `${target} is not a deployment: builds/latest.json names no build (deploy a build there first)`,
    );
  }
  return state;
}

/** Refuses a build the folder does not hold whole: unknown, pruned or half-written. */
async function checkWhole(target: string, id: string, what: string): Promise<void> {
  if (!existsSync(join(target, META_DIR, `${id}.json`))) {
    throw new CanaryError(
      `build ${id} was never deployed or staged in ${target} (there is no ${META_DIR}/${id}.json): stage it first ` +
        `(npm run deploy -w <remote> -- ${target} --stage)`,
    );
  }
  const problem = await ownCopyProblem(target, id);
  if (problem) throw new CanaryError(`build ${id} cannot be ${what}: its copy in ${target} is not whole (${problem})`);
}

/** Stages a build folder into `target`: its own copy and meta file only (`deploy --stage`). */
export async function stageBuild(options: {
  source: string;
  target: string;
  onFile?: (path: string, action: FileAction) => void;
}): Promise<DeployResult> {
  return deploy({ source: options.source, target: options.target, stage: true, onFile: options.onFile });
}

export interface StartCanaryOptions {
  target: string;
  /** A build the target holds whole (staged); or `source`. */
  buildId?: string;
  /** A build folder, staged first. */
  source?: string;
  percent: number;
}

export interface CanaryResult {
  state: DeploymentState;
  /** The staging of `source`, when one was given. */
  staged?: DeployResult;
}

/** Refuses a canary of the stable build, of a revoked build, or a second canary while one runs. */
function checkStartable(target: string, state: DeploymentState, id: string): void {
  if (id === state.id) {
    throw new CanaryError(`build ${id} is the stable build of ${target}: a canary is another build`);
  }
  if (isRevoked(state, id)) throw new CanaryError(revokedMessage(target, id));
  if (state.canary && state.canary.id !== id) {
    throw new CanaryError(
      `build ${state.canary.id} is already running as a canary for ${state.canary.percent} % of visitors in ` +
        `${target}: promote it or abort it first`,
    );
  }
}

export async function startCanary(options: StartCanaryOptions): Promise<CanaryResult> {
  const target = resolve(options.target);
  const percent = checkPercent(options.percent);
  if ((options.buildId === undefined) === (options.source === undefined)) {
    throw new CanaryError('a canary starts from a build id or from a build folder: give exactly one');
  }
  // The build's id first, so a refusal changes nothing, staging included.
  const id = options.buildId ?? (await readBuild(resolve(options.source as string))).id;
  if (!isBuildId(id)) throw new CanaryError(`"${id}" is not a build id`);
  if (!existsSync(target)) throw new CanaryError(`${target} does not exist`);
  return withDeploymentLock(target, 'canary start', async () => {
    const state = await deploymentOf(target);
    checkStartable(target, state, id);
    // A build the folder holds is checked whole before anything is written; one from a build folder once staged.
    if (options.source === undefined) await checkWhole(target, id, 'started as a canary');
    const staged = options.source === undefined ? undefined : await stageBuild({ source: options.source, target });
    if (staged) await checkWhole(target, id, 'started as a canary');
    const running = state.canary?.id === id ? state.canary : undefined;
    const { state: written } = await writeDeployment(target, {
      canary: { ...running, id, percent, since: running?.since ?? Date.now() },
    });
    return { state: written, ...(staged ? { staged } : {}) };
  });
}

/** The running canary of `state`, refused when none runs. */
function runningCanary(target: string, state: DeploymentState): CanaryState {
  if (!state.canary) throw new CanaryError(`no canary runs in ${target} (its stable build is ${state.id})`);
  return state.canary;
}

export async function setCanaryPercent(options: { target: string; percent: number }): Promise<CanaryResult> {
  const target = resolve(options.target);
  const percent = checkPercent(options.percent);
  return withDeploymentLock(target, 'canary set', async () => {
    const canary = runningCanary(target, await deploymentOf(target));
    const { state } = await writeDeployment(target, { canary: { ...canary, percent } });
    return { state };
  });
}

export interface PromoteResult extends DeployResult {
  /** The stable build it replaced, now the deployment's `previous`. */
  previousId: string;
  state: DeploymentState;
}

export async function promoteCanary(options: {
  target: string;
  onFile?: (path: string, action: FileAction) => void;
}): Promise<PromoteResult> {
  const target = resolve(options.target);
  return withDeploymentLock(target, 'canary promote', async () => {
    const before = await deploymentOf(target);
    const canary = runningCanary(target, before);
    await checkWhole(target, canary.id, 'promoted');
    const source = join(target, buildFolder(canary.id));
    const result = await publish(await readBuild(source), source, target, {
      ownCopy: false,
      onFile: options.onFile,
      deployment: { previous: before.id },
    });
    return { ...result, previousId: before.id, state: await deploymentOf(target) };
  });
}

export interface AbortResult {
  /** The canary dropped. */
  aborted: CanaryState;
  reason: string;
  state: DeploymentState;
}

/** Why a canary was aborted when its aborter gives no reason. */
export const ABORTED_BY_HAND = 'aborted by hand';

/**
 * Drops the running canary and records the abort (`by`: what aborted it; `reason`, by default
 * ABORTED_BY_HAND) in canary-aborts.ts's log, which `rollback --list` reads.
 */
export async function abortCanary(options: {
  target: string;
  reason?: string;
  by?: string;
  now?: () => number;
}): Promise<AbortResult> {
  const target = resolve(options.target);
  return withDeploymentLock(target, 'canary abort', async () => {
    const aborted = runningCanary(target, await deploymentOf(target));
    const reason = options.reason?.trim() || ABORTED_BY_HAND;
    const { state } = await writeDeployment(target, { canary: null });
    await recordCanaryAbort(target, {
      id: aborted.id,
      at: (options.now ?? Date.now)(),
      by: options.by ?? 'npm run canary abort',
      reason,
      percent: aborted.percent,
    });
    return { aborted, state, reason };
  });
}

/**
 * Records that `by` judged the running canary `id` at `at` (its `judgedAt`/`judgedBy`), so the
 * API's gauges show it judged. Refused when `id` is not the running canary.
 */
export async function recordJudgement(options: { target: string; id: string; by: string; at: number }): Promise<void> {
  const target = resolve(options.target);
  await withDeploymentLock(target, 'canary judgement', async () => {
    const canary = runningCanary(target, await deploymentOf(target));
    if (canary.id !== options.id)
      throw new CanaryError(`build ${canary.id}, not ${options.id}, is the canary running in ${target}`);
    await writeDeployment(target, { canary: { ...canary, judgedAt: options.at, judgedBy: options.by } });
  });
}

export interface DeploymentStatus {
  target: string;
  state: DeploymentState;
  /** When each build the state names was built (ms since the epoch), as its meta file says. */
  builtAt: Record<string, number>;
}

/** What `status` prints: the deployment's builds and when each was built. Reads only. */
export async function deploymentStatus(targetFolder: string): Promise<DeploymentStatus> {
  const target = resolve(targetFolder);
  if (!existsSync(target)) throw new CanaryError(`${target} does not exist`);
  const state = await deploymentOf(target);
  const builtAt = Object.fromEntries((await deployedBuilds(target)).map((meta) => [meta.id, meta.timestamp]));
  return { target, state, builtAt };
}

const USAGE = `Usage: npm run canary -w <remote> -- <target folder> <action>

Gives a build other than the stable one to a share of visitors, then makes it stable or drops it.
One command at a time changes a folder: each is refused while a deploy, rollback or other canary
command runs on it.
  start <id> --percent <n>        start a build the folder holds whole (staged with
                                  npm run deploy -- <target> --stage) for n % of visitors
  start --from <folder> --percent <n>
                                  stage a build folder, then start it
  set <n>                         give the running canary to n % of visitors (0 to 100)
  promote                         make the canary the stable build, as a deploy would; the
                                  stable build it replaces becomes the last known good
  abort [--reason <text>]         drop the canary: its visitors get the stable build on their
                                  next navigation (its files stay); the abort and its reason
                                  (default: aborted by hand) are what rollback --list shows
  status                          the stable build, the one before it, and the canary
  -h, --help                      this text`;

const OPTIONS = {
  percent: { type: 'string' },
  from: { type: 'string' },
  reason: { type: 'string' },
} as const;

function parsePercent(text: string | undefined, what: string): number {
  if (text === undefined || text === '') refuse(`${what} needs a percent (0 to 100)`);
  if (!/^\d{1,3}$/.test(text) || Number(text) > 100) refuse(`${what} is a whole number from 0 to 100, got "${text}"`);
  return Number(text);
}

function isoOf(timestamp: number): string {
  return new Date(timestamp).toISOString();
}

/** What an abort typed here is recorded as aborted by: the command, its user and machine. */
function abortedBy(): string {
  try {
    return `npm run canary abort by ${userInfo().username} on ${hostname()}`;
  } catch {
    return `npm run canary abort on ${hostname()}`;
  }
}

/** What `abort` says: what new pages and open pages get now. */
function describeAborted(target: string, { aborted, reason, state }: AbortResult): string {
  return (
    `canary: build ${aborted.id} aborted in ${target} (${reason}): new pages get build ${state.id} once the host's servers have read the deployment, and a page ` +
    `open on ${aborted.id} switches to it at its first navigation after that; its files stay`
  );
}

/**
 * What `start` says: the build staged, the canary running, and that nobody judges it: the command
 * starts no judge, the release run adopts a running canary of its build (release.ts), and until
 * one judges it, CanaryUnjudged fires.
 */
function describeStarted(
  target: string,
  state: DeploymentState,
  staged: DeployResult | undefined,
  packageName: string,
): string[] {
  const id = state.canary?.id ?? '';
  return [
    ...(staged ? [`canary: build ${staged.buildId} staged in ${target} (${buildFolder(staged.buildId)}/)`] : []),
    `canary: build ${id} runs for ${state.canary?.percent} % of visitors in ${target} (stable: ${state.id}); ` +
      'change the share with set <n>, then promote or abort',
    `canary: nobody judges build ${id} yet: have the release run judge it from this percent on ` +
      `(npm run release -w ${packageName} -- ${target} --build ${id} --host <URL> --prometheus <URL>), or promote or ` +
      `abort it yourself; a canary nobody judges for ${UNJUDGED_AFTER_S / 60} minutes raises the CanaryUnjudged alert`,
  ];
}

/** The deployment as `status` prints it. */
export function describeStatus({ target, state, builtAt }: DeploymentStatus): string {
  const built = (id: string) => (builtAt[id] === undefined ? '' : ` (built ${isoOf(builtAt[id])})`);
  const lines = [`Deployment in ${target}:`, `  stable    ${state.id}${built(state.id)}`];
  lines.push(`  previous  ${state.previous ? `${state.previous}${built(state.previous)}` : 'none'}`);
  lines.push(
    state.canary
      ? `  canary    ${state.canary.id}${built(state.canary.id)} for ${state.canary.percent} % of visitors, ` +
          `since ${isoOf(state.canary.since)}`
      : '  canary    none',
  );
  if (state.canary) {
    const { judgedAt, judgedBy } = state.canary;
    lines.push(
      judgedAt === undefined
        ? '  judged    never: no release run has judged it'
        : `  judged    ${isoOf(judgedAt)}${judgedBy ? ` by ${judgedBy}` : ''}`,
    );
  }
  if (state.revoked) lines.push(`  revoked   ${state.revoked.join(', ')}`);
  return lines.join('\n');
}

type CanaryIo = Pick<CliIo, 'cwd' | 'packageDir' | 'out' | 'err'>;

/** The action the command line names, run; what it refuses throws UsageError. */
async function runAction({ values, positionals }: CommandLine<typeof OPTIONS>, io: CanaryIo): Promise<number> {
  const [targetArg, action, ...rest] = positionals;
  if (targetArg === undefined) refuse('the target folder is missing');
  if (action === undefined) refuse('the action is missing (start, set, promote, abort or status)');
  const target = resolve(io.cwd, targetArg);
  const only = (allowed: readonly string[], count: number) => {
    const given = (['percent', 'from', 'reason'] as const).filter((name) => values[name] !== undefined);
    const extra = given.find((name) => !allowed.includes(name));
    if (extra) refuse(`${action} takes no --${extra}`);
    if (rest.length > count)
      refuse(`${action} takes ${count === 0 ? 'no' : `at most ${count}`} argument${count === 1 ? '' : 's'} after it`);
  };
  switch (action) {
    case 'start': {
      only(['percent', 'from'], 1);
      const percent = parsePercent(values.percent, '--percent');
      const id = rest[0];
      if ((id === undefined) === (values.from === undefined)) {
        refuse('start takes a build id or --from <build folder>, one of them');
      }
      const { state, staged } = await startCanary({
        target,
        percent,
        ...(id === undefined ? { source: resolve(io.cwd, values.from as string) } : { buildId: id }),
      });
      for (const line of describeStarted(target, state, staged, basename(io.packageDir))) io.out(line);
      return 0;
    }
    case 'set': {
      only([], 1);
      const { state } = await setCanaryPercent({ target, percent: parsePercent(rest[0], 'set') });
      io.out(`canary: build ${state.canary?.id} runs for ${state.canary?.percent} % of visitors in ${target}`);
      return 0;
    }
    case 'promote': {
      only([], 0);
      const result = await promoteCanary({ target });
      io.out(
        `canary: build ${result.buildId} is the stable build of ${target}, in place of build ${result.previousId} ` +
          `(the last known good; npm run rollback goes back to it): ${result.added.length} added, ` +
          `${result.replaced.length} replaced, ${result.unchanged.length} unchanged`,
      );
      return 0;
    }
    case 'abort': {
      only(['reason'], 0);
      io.out(describeAborted(target, await abortCanary({ target, reason: values.reason, by: abortedBy() })));
      return 0;
    }
    case 'status':
      only([], 0);
      io.out(describeStatus(await deploymentStatus(target)));
      return 0;
    default:
      return refuse(`unknown action "${action}" (start, set, promote, abort or status)`);
  }
}

export const canaryCommand = defineCommand({
  name: 'canary',
  summary: 'start, step, promote or abort a canary build, or show the deployment',
  usage: USAGE,
  options: OPTIONS,
  run: (line, io: CanaryIo) => statusOrFailure('canary', io, () => runAction(line, io)),
});
