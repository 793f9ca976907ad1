/**
 * The release run: a remote's new build from staged to current with no person in the loop, and
 * as few visitors as possible meeting it when it is bad.
 *
 * Holding the deployment's lock for the whole run (no other deploy, rollback or canary command
 * can change the folder meanwhile), it
 *
 * 1. stages the build (`deploy --stage`: its own copy in `builds/{id}/`, nothing current moves),
 *    or takes one already staged (`--build`); when that build already runs as the canary (started
 *    by hand with `npm run canary … start`, or left by a run that stopped), it adopts it: no gate
 *    (its visitors already have it), judged at once on what its visitors reported since its start
 *    (failing: aborted then), its current percent the first step (analysed from its start too)
 *    and the run's steps above it the next; a canary of another build is refused;
 * 2. runs the gate (gate.ts) on the production host; a failing gate stops the run, nothing
 *    current changed;
 * 3. makes sure Prometheus answers (a canary that cannot be judged is not started), then starts
 *    the canary at the first step's percent;
 * 4. after each interval, analyses the canary against the stable build (canary-analysis.ts),
 *    recording in the canary that it judges it (canary-judge.ts: at least every 30 s, so
 *    CanaryUnjudged fires for a canary no run judges):
 *    - failing: aborts it at once (new pages get the stable build, open pages at their next
 *      navigation), records the abort with the verdict's reasons, and says why, with the figures;
 *    - inconclusive (too few loads): waits another interval, up to `maxWaits`, then stops where
 *      it is, the canary left at its step for a person to decide;
 *    - unreachable: stops where it is, never promotes blind;
 *    - healthy: the next step, or after the last one, promotes the canary.
 *
 * It prints a line per analysis with both builds' figures, and at the end how long the canary
 * was served, from its start to its abort or promotion. SIGINT or SIGTERM stop it where it is,
 * the lock released.
 */
import { resolve } from 'node:path';
import type { CanaryState, DeploymentState } from 'shared/deployment';
import { defineCommand, refuse, statusOrFailure, type CommandLine } from './command-line';
import {
  analyseCanary,
  DEFAULT_THRESHOLDS,
  describeFigures,
  type AnalysisOptions,
  type Thresholds,
  type Verdict,
} from './canary-analysis';
import { abortCanary, promoteCanary, recordJudgement, setCanaryPercent, stageBuild, startCanary } from './canary';
import { adoptedSteps, JUDGE_HEARTBEAT_MS, RELEASE_JUDGE, UNJUDGED_AFTER_S } from './canary-judge';
import { ownCopyProblem, readBuild, type CliIo } from './deploy';
import { readDeployment, withDeploymentLock } from './deployment';
import {
  DEFAULT_LCP_BUDGET_MS,
  DEFAULT_GATE_OUT_DIR,
  GateStopped,
  PREVIEW_KEY_ENV,
  remoteOfPackage,
  runGate,
  type GateCheck,
  type GateOptions,
} from './gate';

/** What the release run does to a deployment: the deploy and canary commands, under one lock. */
export interface DeploymentCommands {
  /** Runs `fn` holding the deployment's lock (`purpose` names the holder to a refused run). */
  withLock<T>(target: string, purpose: string, fn: () => Promise<T>): Promise<T>;
  read(target: string): Promise<DeploymentState | undefined>;
  /** Stages the build in `source` (its own copy only); gives its id. */
  stage(target: string, source: string): Promise<string>;
  /** Why the staged build `id` cannot be used (its copy is missing or partial), or undefined. */
  stagedProblem(target: string, id: string): Promise<string | undefined>;
  startCanary(target: string, id: string, percent: number): Promise<void>;
  setCanaryPercent(target: string, percent: number): Promise<void>;
  promoteCanary(target: string): Promise<void>;
  /** Aborts the running canary, recording `reason` with the abort. */
  abortCanary(target: string, reason: string): Promise<void>;
  /** Records that `judge` judged the running canary `id` at `at`. */
  recordJudgement(target: string, id: string, judge: string, at: number): Promise<void>;
  /** The id of the build in `source`, read without staging it. */
  buildIdOf(source: string): Promise<string>;
}

/** The deploy and canary commands on a deployment folder (canary.ts, deployment.ts). */
export const DEPLOYMENT_COMMANDS: DeploymentCommands = {
  withLock: (target, purpose, fn) => withDeploymentLock(target, purpose, fn),
  read: readDeployment,
  stage: async (target, source) => (await stageBuild({ source, target })).buildId,
  stagedProblem: ownCopyProblem,
  startCanary: async (target, buildId, percent) => {
    await startCanary({ target, buildId, percent });
  },
  setCanaryPercent: async (target, percent) => {
    await setCanaryPercent({ target, percent });
  },
  promoteCanary: async (target) => {
    await promoteCanary({ target });
  },
  abortCanary: async (target, reason) => {
    await abortCanary({ target, reason, by: 'npm run release' });
  },
  recordJudgement: (target, id, by, at) => recordJudgement({ target, id, by, at }),
  buildIdOf: async (source) => (await readBuild(source)).id,
};

export interface ReleaseOptions {
  target: string;
  remote: string;
  /** The build to stage (a `dist/`); or `buildId` for one already staged. */
  source?: string;
  buildId?: string;
  host: string;
  prometheus: string;
  key: string;
  /** Percent steps, increasing, each 1..100. */
  steps: readonly number[];
  intervalMs: number;
  /** Inconclusive analyses tolerated at one step before the run stops there. */
  maxWaits: number;
  thresholds: Thresholds;
  /** For the gate. */
  paths?: readonly string[];
  lcpBudgetMs?: number;
  outDir: string;
  /** Stops the run where it is (SIGINT, SIGTERM). */
  signal?: AbortSignal;
  out: (line: string) => void;
  err: (line: string) => void;
}

export interface ReleaseDependencies {
  commands: DeploymentCommands;
  gate: (options: GateOptions) => Promise<{ ok: boolean; checks: GateCheck[] }>;
  analyse: (options: AnalysisOptions) => Promise<Verdict>;
  now: () => number;
  /** Waits `ms`, or less when `signal` aborts. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export type ReleaseOutcome =
  'promoted' | 'aborted' | 'gate-failed' | 'stopped-inconclusive' | 'stopped-unreachable' | 'stopped-by-signal';

export interface ReleaseResult {
  outcome: ReleaseOutcome;
  buildId?: string;
  /** From the canary's start to its abort or promotion (ms); undefined when it was not started or still runs. */
  servedMs?: number;
  /** The percent the canary was left at, when the run stopped where it was. */
  percent?: number;
}

export class ReleaseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReleaseError';
  }
}

/** Steps from `10,50,100`: whole percents, increasing, 1 to 100. */
export function parseSteps(text: string): number[] {
  const steps = text.split(',').map((part) => part.trim());
  const numbers = steps.map((part) => (/^\d{1,3}$/.test(part) ? Number(part) : Number.NaN));
  if (numbers.some((value) => !Number.isInteger(value) || value < 1 || value > 100))
    throw new ReleaseError(`--steps must be whole percents from 1 to 100, separated by commas; got "${text}"`);
  if (numbers.some((value, index) => index > 0 && value <= (numbers[index - 1] ?? 0)))
    throw new ReleaseError(`--steps must increase; got "${text}"`);
  return numbers;
}

/** A duration from `60s`, `2m`, `1500ms` or a bare number of seconds. */
export function parseDuration(text: string, flag: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text.trim());
  if (!match) throw new ReleaseError(`${flag} must be a duration such as 60s, 2m or 1500ms; got "${text}"`);
  const value = Number(match[1]);
  const ms = match[2] === 'ms' ? value : match[2] === 'm' ? value * 60_000 : value * 1000;
  if (ms < 1000) throw new ReleaseError(`${flag} must be at least 1s; got "${text}"`);
  return Math.round(ms);
}

/** What an unjudged canary leads to, for the lines that leave one running. */
const UNJUDGED_NOTE = `judged by nobody: CanaryUnjudged fires ${UNJUDGED_AFTER_S / 60} minutes after its last judgement`;

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function describeVerdict(verdict: Verdict): string[] {
  if (verdict.kind === 'unreachable') return [];
  return [`  ${describeFigures('canary', verdict.canary)}`, `  ${describeFigures('stable', verdict.stable)}`];
}

/** A run under way: its options and dependencies, the folder, its stable build and who it is as a judge. */
interface Run {
  options: ReleaseOptions;
  deps: ReleaseDependencies;
  target: string;
  stable: string;
  judge: string;
}

/** The canary a run judges. */
interface Trial {
  buildId: string;
  /** When the canary started (ms since the epoch): what it was served for counts from then. */
  since: number;
  /** The percent it runs at now. */
  percent: number;
  /** The percents it goes through. */
  steps: readonly number[];
  /** Where the first step's analyses start, when not at the step: an adopted canary's start. */
  firstStepFrom?: number;
}

/** The release run; see the file's header. */
export async function runRelease(options: ReleaseOptions, deps: ReleaseDependencies): Promise<ReleaseResult> {
  const target = resolve(options.target);
  const purpose = `release of the ${options.remote} remote (process ${process.pid})`;
  return deps.commands.withLock(target, purpose, async () => {
    const state = await deps.commands.read(target);
    if (!state) throw new ReleaseError(`${target} has no current build: deploy one first (npm run deploy)`);
    const run: Run = { options, deps, target, stable: state.id, judge: RELEASE_JUDGE };
    const trial = state.canary ? await adopt(run, state.canary) : await stageGateAndStart(run);
    return 'outcome' in trial ? trial : judgeSteps(run, trial);
  });
}

function analyse(run: Run, buildId: string, since: number, canaryStart: number): Promise<Verdict> {
  const { options, deps } = run;
  return deps.analyse({
    prometheus: options.prometheus,
    remote: options.remote,
    stable: run.stable,
    canary: buildId,
    since,
    canaryStart,
    thresholds: options.thresholds,
    now: deps.now(),
  });
}

/** Records that the run judges the canary now: the API's gauges, and CanaryUnjudged, read it. */
function recordJudged(run: Run, buildId: string): Promise<void> {
  return run.deps.commands.recordJudgement(run.target, buildId, run.judge, run.deps.now());
}

/**
 * Takes on the canary already running when it is the build this run releases: no staging and no
 * gate (its visitors have it already), its analysis from its percent and start on. Another build
 * is refused: one canary at a time.
 */
async function adopt(run: Run, canary: CanaryState): Promise<Trial | ReleaseResult> {
  const { options, deps, target } = run;
  const buildId = options.buildId ?? (await deps.commands.buildIdOf(resolve(options.source ?? '')));
  if (buildId !== canary.id) {
    throw new ReleaseError(
      `build ${canary.id} is already a canary at ${canary.percent} % in ${target}, and this run releases build ` +
        `${buildId}: one canary at a time. Have a release run judge ${canary.id} (--build ${canary.id}), or promote ` +
        'or abort it (npm run canary) first',
    );
  }
  // Judged at once on everything its visitors reported since it started: it ran unjudged so far.
  const verdict = await analyse(run, buildId, canary.since, canary.since);
  if (verdict.kind === 'unreachable') {
    options.err(
      `release: Prometheus cannot be reached (${verdict.reason}); canary ${buildId} was not taken on and stays at ` +
        `${canary.percent} %, ${UNJUDGED_NOTE}`,
    );
    return { outcome: 'stopped-unreachable', buildId, percent: canary.percent };
  }
  await recordJudged(run, buildId);
  options.out(
    `release: canary ${buildId} already runs at ${canary.percent} % (since ${new Date(canary.since).toISOString()}, ` +
      `stable ${run.stable}): this run judges it from there, without the gate its visitors are past`,
  );
  const steps = adoptedSteps(canary.percent, options.steps);
  const trial: Trial = { buildId, since: canary.since, percent: canary.percent, steps, firstStepFrom: canary.since };
  const at = `release: as taken on, ${seconds(deps.now() - canary.since)} after its start`;
  if (verdict.kind === 'failing') return abortFailing(run, trial, verdict, at);
  options.out(`${at}: ${verdict.kind === 'healthy' ? 'healthy so far' : `inconclusive so far: ${verdict.reason}`}`);
  for (const line of describeVerdict(verdict)) options.out(line);
  return trial;
}

/** Stages the build (or takes the staged one), runs the gate, and starts the canary at the first step. */
async function stageGateAndStart(run: Run): Promise<Trial | ReleaseResult> {
  const { options, deps, target } = run;
  let buildId: string;
  if (options.buildId !== undefined) {
    const problem = await deps.commands.stagedProblem(target, options.buildId);
    if (problem) throw new ReleaseError(`build ${options.buildId} is not staged in ${target}: ${problem}`);
    buildId = options.buildId;
    options.out(`release: build ${buildId}, staged before, in ${target}`);
  } else {
    buildId = await deps.commands.stage(target, resolve(options.source ?? ''));
    options.out(`release: staged build ${buildId} in ${target} (builds/${buildId}/); nothing current changed`);
  }
  if (buildId === run.stable) throw new ReleaseError(`build ${buildId} is already the current build of ${target}`);

  const gate = await runGateOf(run, buildId);
  if (gate === 'stopped') return stoppedBySignal(options, buildId);
  if (!gate.ok) {
    options.err(`release: build ${buildId} failed the gate; it stays staged, nothing current changed`);
    return { outcome: 'gate-failed', buildId };
  }
  if (options.signal?.aborted) return stoppedBySignal(options, buildId);

  // Before any visitor gets the canary: a canary that cannot be judged is not started.
  const before = await analyse(run, buildId, deps.now(), deps.now());
  if (before.kind === 'unreachable') {
    options.err(`release: Prometheus cannot be reached (${before.reason}); the canary was not started`);
    return { outcome: 'stopped-unreachable', buildId };
  }
  const [first = 100] = options.steps;
  const since = deps.now();
  await deps.commands.startCanary(target, buildId, first);
  await recordJudged(run, buildId);
  options.out(`release: canary ${buildId} started at ${first} % (stable ${run.stable})`);
  return { buildId, since, percent: first, steps: options.steps };
}

async function runGateOf(run: Run, buildId: string): Promise<{ ok: boolean } | 'stopped'> {
  const { options } = run;
  options.out(`release: gate on ${options.host}`);
  const gate = await run.deps
    .gate({
      target: run.target,
      remote: options.remote,
      buildId,
      host: options.host,
      key: options.key,
      paths: options.paths,
      lcpBudgetMs: options.lcpBudgetMs,
      outDir: options.outDir,
      signal: options.signal,
      onCheck: (check) => {
        const line = `release: gate ${check.ok ? 'pass' : 'FAIL'} ${check.name}: ${check.detail}`;
        if (check.ok) options.out(line);
        else options.err(check.screenshot ? `${line}\n      screenshot: ${check.screenshot}` : line);
      },
    })
    .catch((error: unknown) => {
      if (error instanceof GateStopped) return undefined;
      throw error;
    });
  return gate ?? 'stopped';
}

/** Waits `ms`, recording a judgement at least every JUDGE_HEARTBEAT_MS; false when a signal stopped it. */
async function waitJudging(run: Run, buildId: string, ms: number): Promise<boolean> {
  for (let left = ms; left > 0;) {
    const part = Math.min(left, JUDGE_HEARTBEAT_MS);
    await run.deps.sleep(part, run.options.signal);
    if (run.options.signal?.aborted) return false;
    left -= part;
    await recordJudged(run, buildId);
  }
  return true;
}

/** Takes the canary through its steps: aborted when failing, promoted after the last healthy one. */
async function judgeSteps(run: Run, trial: Trial): Promise<ReleaseResult> {
  const { options, deps, target } = run;
  const { buildId, steps } = trial;
  let running = trial.percent;
  for (const [index, percent] of steps.entries()) {
    if (percent !== running) {
      await deps.commands.setCanaryPercent(target, percent);
      options.out(`release: canary ${buildId} at ${percent} %`);
      running = percent;
    }
    const stepStart = index === 0 && trial.firstStepFrom !== undefined ? trial.firstStepFrom : deps.now();
    for (let waits = 0; ; waits += 1) {
      if (!(await waitJudging(run, buildId, options.intervalMs))) return stoppedBySignal(options, buildId, percent);
      const verdict = await analyse(run, buildId, stepStart, trial.since);
      const at = `release: step ${index + 1}/${steps.length} (${percent} %), ${seconds(deps.now() - stepStart)} in`;
      if (verdict.kind === 'unreachable') {
        options.err(`${at}: Prometheus cannot be reached (${verdict.reason})`);
        options.err(
          `release: stopped where it is: canary ${buildId} stays at ${percent} %, never promoted blind, ` +
            `${UNJUDGED_NOTE}; promote or abort it with npm run canary once the figures can be read`,
        );
        return { outcome: 'stopped-unreachable', buildId, percent };
      }
      if (verdict.kind === 'failing') return abortFailing(run, trial, verdict, at);
      const lines = describeVerdict(verdict);
      if (verdict.kind === 'inconclusive') {
        options.out(`${at}: inconclusive: ${verdict.reason}`);
        for (const line of lines) options.out(line);
        if (waits + 1 > options.maxWaits) {
          options.err(
            `release: stopped where it is after ${options.maxWaits + 1} inconclusive analyses: canary ${buildId} ` +
              `stays at ${percent} %, ${UNJUDGED_NOTE}; promote or abort it with npm run canary, or lower --min-sample`,
          );
          return { outcome: 'stopped-inconclusive', buildId, percent };
        }
        continue;
      }
      options.out(`${at}: healthy`);
      for (const line of lines) options.out(line);
      break;
    }
  }
  await deps.commands.promoteCanary(target);
  const servedMs = deps.now() - trial.since;
  options.out(
    `release: build ${buildId} promoted: it is the stable build of ${target}, ${run.stable} its last known good; ` +
      `the canary was served for ${seconds(servedMs)}`,
  );
  return { outcome: 'promoted', buildId, servedMs };
}

/** Aborts a failing canary, its reasons recorded with the abort, and says what visitors get now. */
async function abortFailing(
  run: Run,
  trial: Trial,
  verdict: Extract<Verdict, { kind: 'failing' }>,
  at: string,
): Promise<ReleaseResult> {
  const { options, deps } = run;
  const { buildId } = trial;
  options.err(`${at}: failing: ${verdict.reasons.join('; ')}`);
  for (const line of describeVerdict(verdict)) options.err(line);
  options.err(
    verdict.corroboration
      ? `release: the abort is corroborated: ${verdict.corroboration}`
      : `release: the abort is NOT corroborated: one signal alone decided, no second one agrees; aborting, as a ` +
          `canary in doubt is safer off than on: verify it (the dashboard, npm run canary status, the remote's ` +
          `server logs) before you trust it`,
  );
  await deps.commands.abortCanary(run.target, `the release run judged it failing: ${verdict.reasons.join('; ')}`);
  const servedMs = deps.now() - trial.since;
  options.err(
    `release: canary ${buildId} aborted: new pages get build ${run.stable} once the host's server has read the ` +
      `deployment (within its REMOTE_REFRESH_MS, 5 s by default), and a page already open on ${buildId} switches to ` +
      `${run.stable} at its first navigation after that read; the canary was served for ${seconds(servedMs)}`,
  );
  return { outcome: 'aborted', buildId, servedMs };
}

function stoppedBySignal(options: ReleaseOptions, buildId: string, percent?: number): ReleaseResult {
  options.err(
    percent === undefined
      ? `release: stopped before the canary started; build ${buildId} stays staged`
      : `release: stopped where it is: canary ${buildId} stays at ${percent} %, ${UNJUDGED_NOTE}; promote or abort ` +
          'it with npm run canary, or run this again to judge it on',
  );
  return { outcome: 'stopped-by-signal', buildId, percent };
}

/** A wait that ends early when `signal` aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((done) => {
    if (signal?.aborted) return done();
    const timer = setTimeout(finish, ms);
    function finish() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', finish);
      done();
    }
    signal?.addEventListener('abort', finish, { once: true });
  });
}

const USAGE = `Usage: PREVIEW_KEY=<the remote's preview key> npm run release -w <remote> -- <target folder>
         --host <URL> --prometheus <URL> [--from <build folder> | --build <id>]
         [--steps 10,50,100] [--interval 60s] [--min-sample N] [--min-clients N] [--max-waits N] [thresholds]
         [--path <sample path>]... [--lcp-budget-ms <ms>] [--out <folder>]

Releases a build of the remote with no person in the loop, holding the deployment's lock the
whole time: stages it (nothing current changes), runs the gate on the production host, starts it
as a canary at the first step, and after each interval asks Prometheus how its visitors fared
against the stable build's. Failing: aborted at once, with the figures. Healthy: the next step,
and after the last one, promoted. Too few loads to judge: another interval, up to --max-waits,
then it stops where it is. Prometheus unreachable: it stops where it is and never promotes.
  --host <URL>                the production host's origin (the gate opens it)
  --prometheus <URL>          Prometheus's base URL (its HTTP API answers there)
  --from <folder>             the build to release (default: dist/ of the package)
  --build <id>                a build already staged in the target instead
  --steps <list>              the canary's percents, increasing (default 10,50,100)
  --interval <duration>       how long each analysis waits (default 60s; 90s, 2m, 1500ms)
  --min-sample <n>            the canary loads needed for a verdict (default ${DEFAULT_THRESHOLDS.minSample})
  --min-clients <n>           the distinct clients (addresses) needed behind the canary's loads for a
                              verdict, and behind its failures to fail it (default ${DEFAULT_THRESHOLDS.minClients})
  --max-waits <n>             inconclusive analyses tolerated at a step (default 3)
  --max-failure-points <n>    load-failure ratio points above stable that fail (default ${DEFAULT_THRESHOLDS.loadFailurePoints})
  --max-error-page-points <n> error-page ratio points above stable that fail (default ${DEFAULT_THRESHOLDS.errorPagePoints})
  --max-lcp-percent <n>, --max-lcp-ms <n>
                              p75 LCP above stable by both that fails (default ${DEFAULT_THRESHOLDS.lcpPercent} % and ${DEFAULT_THRESHOLDS.lcpMs} ms)
  --max-inp-percent <n>, --max-inp-ms <n>
                              p75 INP likewise (default ${DEFAULT_THRESHOLDS.inpPercent} % and ${DEFAULT_THRESHOLDS.inpMs} ms)
  --path, --lcp-budget-ms, --out
                              the gate's (npm run gate -- --help; default LCP budget ${DEFAULT_LCP_BUDGET_MS} ms)
  --allow-stale-dist          stage dist/ even when it is not the build of the sources beside it
                              (refused otherwise: run npm run build first)
  -h, --help                  this text
Exit status: 0 promoted; 1 refused (the gate failed, or the canary was aborted) or bad input;
2 stopped where it is (inconclusive, Prometheus unreachable, or SIGINT/SIGTERM).`;

const OPTIONS = {
  host: { type: 'string' },
  prometheus: { type: 'string' },
  from: { type: 'string' },
  build: { type: 'string' },
  steps: { type: 'string' },
  interval: { type: 'string' },
  'min-sample': { type: 'string' },
  'min-clients': { type: 'string' },
  'max-waits': { type: 'string' },
  'max-failure-points': { type: 'string' },
  'max-error-page-points': { type: 'string' },
  'max-lcp-percent': { type: 'string' },
  'max-lcp-ms': { type: 'string' },
  'max-inp-percent': { type: 'string' },
  'max-inp-ms': { type: 'string' },
  path: { type: 'string', multiple: true },
  'lcp-budget-ms': { type: 'string' },
  out: { type: 'string' },
} as const;

function wholeNumber(value: string | undefined, flag: string, fallback: number, min = 0): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min)
    refuse(`${flag} must be a whole number of at least ${min}; got "${value}"`);
  return Number(value);
}

function httpOrigin(value: string | undefined, flag: string): string {
  if (!value) refuse(`${flag} is missing`);
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.href.replace(/\/$/, '');
  } catch {
    // Said below.
  }
  return refuse(`${flag} ${value} is not an http(s) URL`);
}

export interface ReleaseCliIo extends CliIo {
  env: Readonly<Record<string, string | undefined>>;
  signal?: AbortSignal;
  /** The parts a test puts in place of the real ones. */
  deps?: Partial<ReleaseDependencies>;
}

export const EXIT_CODES: Record<ReleaseOutcome, number> = {
  promoted: 0,
  aborted: 1,
  'gate-failed': 1,
  'stopped-inconclusive': 2,
  'stopped-unreachable': 2,
  'stopped-by-signal': 2,
};

/** What the release's command line asks for; what it refuses throws UsageError. */
function releaseOptions({ values, positionals }: CommandLine<typeof OPTIONS>, io: ReleaseCliIo): ReleaseOptions {
  const remote = remoteOfPackage(io.packageDir);
  if (!remote) refuse(`${io.packageDir} is not a remote's package (run it with -w <remote>)`);
  if (positionals.length !== 1) refuse('give exactly one target folder');
  if (values.from !== undefined && values.build !== undefined) refuse('give --from or --build, not both');
  const key = io.env[PREVIEW_KEY_ENV];
  if (!key) refuse(`${PREVIEW_KEY_ENV} is not set: the gate signs its preview cookie with the remote's key`);
  return {
    target: resolve(io.cwd, positionals[0] as string),
    remote,
    source: values.build === undefined ? resolve(io.cwd, values.from ?? resolve(io.packageDir, 'dist')) : undefined,
    buildId: values.build,
    host: new URL(httpOrigin(values.host, '--host')).origin,
    prometheus: httpOrigin(values.prometheus, '--prometheus'),
    key,
    ...timing(values),
    maxWaits: wholeNumber(values['max-waits'], '--max-waits', 3),
    thresholds: {
      minSample: wholeNumber(values['min-sample'], '--min-sample', DEFAULT_THRESHOLDS.minSample, 1),
      minClients: wholeNumber(values['min-clients'], '--min-clients', DEFAULT_THRESHOLDS.minClients, 1),
      loadFailurePoints: wholeNumber(
        values['max-failure-points'],
        '--max-failure-points',
        DEFAULT_THRESHOLDS.loadFailurePoints,
      ),
      errorPagePoints: wholeNumber(
        values['max-error-page-points'],
        '--max-error-page-points',
        DEFAULT_THRESHOLDS.errorPagePoints,
      ),
      lcpPercent: wholeNumber(values['max-lcp-percent'], '--max-lcp-percent', DEFAULT_THRESHOLDS.lcpPercent),
      lcpMs: wholeNumber(values['max-lcp-ms'], '--max-lcp-ms', DEFAULT_THRESHOLDS.lcpMs),
      inpPercent: wholeNumber(values['max-inp-percent'], '--max-inp-percent', DEFAULT_THRESHOLDS.inpPercent),
      inpMs: wholeNumber(values['max-inp-ms'], '--max-inp-ms', DEFAULT_THRESHOLDS.inpMs),
    },
    paths: values.path,
    lcpBudgetMs:
      values['lcp-budget-ms'] === undefined
        ? undefined
        : wholeNumber(values['lcp-budget-ms'], '--lcp-budget-ms', DEFAULT_LCP_BUDGET_MS, 1),
    outDir: resolve(io.cwd, values.out ?? DEFAULT_GATE_OUT_DIR),
    signal: io.signal,
    out: io.out,
    err: io.err,
  };
}

/** Steps and interval as the release reads them: what they refuse is a refused command line. */
function timing(values: CommandLine<typeof OPTIONS>['values']): { steps: number[]; intervalMs: number } {
  try {
    return {
      steps: parseSteps(values.steps ?? '10,50,100'),
      intervalMs: parseDuration(values.interval ?? '60s', '--interval'),
    };
  } catch (error) {
    if (error instanceof ReleaseError) refuse(error.message);
    throw error;
  }
}

export const releaseCommand = defineCommand({
  name: 'release',
  summary: 'stage, gate, step and promote (or abort) a build as a judged canary',
  usage: USAGE,
  options: OPTIONS,
  run: (line, io: ReleaseCliIo) => {
    const options = releaseOptions(line, io);
    const deps = {
      commands: DEPLOYMENT_COMMANDS,
      gate: runGate,
      analyse: analyseCanary,
      now: Date.now,
      sleep: abortableSleep,
    };
    return statusOrFailure(
      'release',
      io,
      async () => EXIT_CODES[(await runRelease(options, { ...deps, ...io.deps })).outcome],
    );
  },
});
