/**
 * The release run's decisions, step by step: what it does to the deployment (through the deploy
 * and canary commands, here a record of the calls on a deployment held in memory) for each
 * verdict of the gate and of the analysis, on a clock that moves only when the run waits. The
 * analysis against a real Prometheus is canary-analysis.test.ts's; the whole run on the nginx
 * topology with a real browser, e2e/tests/release.spec.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DeploymentState } from 'shared/deployment';
import type { BuildFigures, Verdict } from './canary-analysis';
import { DEFAULT_THRESHOLDS } from './canary-analysis';
import { startCanary } from './canary';
import { readCanaryAborts } from './canary-aborts';
import { GateStopped } from './gate';
import { deploy } from './deploy';
import {
  DEPLOYMENT_COMMANDS,
  parseDuration,
  parseSteps,
  runRelease,
  releaseCommand,
  type DeploymentCommands,
  type ReleaseDependencies,
  type ReleaseOptions,
} from './release';
import { listFiles, makeBuild, read } from './testing/fake-remote-build';

const TARGET = '/srv/remotes/gifts';

function figures(build: string, over: Partial<BuildFigures> = {}): BuildFigures {
  return {
    build,
    loads: 80,
    failedLoads: 0,
    errorPages: 0,
    pageViews: 80,
    clients: 20,
    failedClients: 0,
    errorPageClients: 0,
    loadFailureRatio: 0,
    errorPageRatio: 0,
    lcpP75Ms: 900,
    inpP75Ms: 60,
    ...over,
  };
}

const HEALTHY: Verdict = { kind: 'healthy', canary: figures('next'), stable: figures('stable') };
const FAILING: Verdict = {
  kind: 'failing',
  canary: figures('next', { failedLoads: 80, loadFailureRatio: 1 }),
  stable: figures('stable'),
  reasons: ["load-failure ratio 100.0 % (80 of 80 loads) against stable's 0.0 %: more than 5 points above"],
};
const INCONCLUSIVE: Verdict = {
  kind: 'inconclusive',
  canary: figures('next', { loads: 3 }),
  stable: figures('stable'),
  reason: 'the canary has 3 loads, fewer than the minimum sample of 50',
};
const UNREACHABLE: Verdict = { kind: 'unreachable', reason: 'http://127.0.0.1:9 did not answer' };

interface World {
  state: DeploymentState;
  /** Every change, in order, with the clock when it was made. */
  calls: string[];
  locked: boolean;
  out: string[];
  err: string[];
  clock: number;
  /** When the run recorded a judgement of the canary (s into the test). */
  judged: number[];
  /** The reasons recorded with each abort. */
  aborts: string[];
}

function world(): World {
  return {
    state: { id: 'stable', timestamp: 1 },
    calls: [],
    locked: false,
    out: [],
    err: [],
    clock: 1_000_000,
    judged: [],
    aborts: [],
  };
}

function commandsOf(w: World): DeploymentCommands {
  const call = (text: string) => w.calls.push(`${text} @${(w.clock - 1_000_000) / 1000}s`);
  return {
    withLock: async (target, purpose, fn) => {
      expect(target).toBe(TARGET);
      expect(purpose).toContain('release of the gifts remote');
      w.locked = true;
      try {
        return await fn();
      } finally {
        w.locked = false;
      }
    },
    read: async () => w.state,
    stage: async (_target, source) => {
      call(`stage ${source}`);
      return 'next';
    },
    stagedProblem: async (_target, id) => (id === 'next' ? undefined : `builds/${id}/ is missing`),
    startCanary: async (_target, id, percent) => {
      expect(w.locked).toBe(true);
      call(`start ${id} ${percent}`);
      w.state = { ...w.state, canary: { id, percent, since: w.clock } };
    },
    setCanaryPercent: async (_target, percent) => {
      call(`set ${percent}`);
      if (w.state.canary) w.state = { ...w.state, canary: { ...w.state.canary, percent } };
    },
    promoteCanary: async () => {
      call('promote');
      w.state = { id: w.state.canary?.id ?? w.state.id, timestamp: 2, previous: w.state.id };
    },
    abortCanary: async (_target, reason) => {
      call('abort');
      w.aborts.push(reason);
      w.state = { id: w.state.id, timestamp: w.state.timestamp };
    },
    recordJudgement: async (_target, id, judge, at) => {
      expect([w.locked, w.state.canary?.id, judge]).toEqual([true, id, 'npm run release']);
      w.judged.push((at - 1_000_000) / 1000);
      if (w.state.canary) w.state = { ...w.state, canary: { ...w.state.canary, judgedAt: at, judgedBy: judge } };
    },
    buildIdOf: async () => 'next',
  };
}

/** The run with the gate's verdict and the analyses' verdicts in order (the first: the check before the start). */
function depsOf(w: World, gateOk: boolean, verdicts: Verdict[]): ReleaseDependencies {
  const queue = [...verdicts];
  return {
    commands: commandsOf(w),
    gate: async (options) => {
      w.calls.push(`gate ${options.buildId}`);
      const check = { name: '/game', ok: gateOk, detail: gateOk ? 'clean' : 'uncaught exception: boom' };
      options.onCheck?.(check);
      return { ok: gateOk, checks: [check] };
    },
    analyse: async (options) => {
      w.calls.push(`analyse since ${(options.since - 1_000_000) / 1000}s`);
      const verdict = queue.shift();
      if (!verdict) throw new Error('an analysis more than the test expected');
      return verdict;
    },
    now: () => w.clock,
    sleep: async (ms) => {
      w.clock += ms;
    },
  };
}

function optionsOf(w: World, over: Partial<ReleaseOptions> = {}): ReleaseOptions {
  return {
    target: TARGET,
    remote: 'gifts',
    source: '/work/remote-gifts/dist',
    host: 'https://giftbox.example',
    prometheus: 'http://127.0.0.1:9090',
    key: 'k'.repeat(32),
    steps: [10, 50, 100],
    intervalMs: 15_000,
    maxWaits: 2,
    thresholds: DEFAULT_THRESHOLDS,
    outDir: '/tmp/gate',
    out: (line) => w.out.push(line),
    err: (line) => w.err.push(line),
    ...over,
  };
}

describe('the release run', () => {
  it('stages, gates, steps a healthy canary through every step and promotes it, saying how long it was served', async () => {
    const w = world();
    const result = await runRelease(optionsOf(w), depsOf(w, true, [HEALTHY, HEALTHY, HEALTHY, HEALTHY]));
    expect(result).toEqual({ outcome: 'promoted', buildId: 'next', servedMs: 45_000 });
    expect(w.calls).toEqual([
      'stage /work/remote-gifts/dist @0s',
      'gate next',
      'analyse since 0s',
      'start next 10 @0s',
      'analyse since 0s',
      'set 50 @15s',
      'analyse since 15s',
      'set 100 @30s',
      'analyse since 30s',
      'promote @45s',
    ]);
    expect(w.state).toEqual({ id: 'next', timestamp: 2, previous: 'stable' });
    expect(w.out.filter((line) => line.includes(': healthy'))).toHaveLength(3);
    expect(w.out).toContain(
      '  canary next: 80 loads from 20 clients, 0 failed (0.0 %, 0 clients), 0 error pages (0.0 %, 0 clients), 80 page views, p75 LCP 900 ms, p75 INP 60 ms',
    );
    expect(w.out.at(-1)).toContain('the canary was served for 45.0 s');
    expect(w.locked).toBe(false);
  });

  it('aborts a failing canary at once, with the figures and why', async () => {
    const w = world();
    const result = await runRelease(optionsOf(w), depsOf(w, true, [HEALTHY, FAILING]));
    expect(result).toEqual({ outcome: 'aborted', buildId: 'next', servedMs: 15_000 });
    expect(w.calls.slice(-2)).toEqual(['analyse since 0s', 'abort @15s']);
    expect(w.state).toEqual({ id: 'stable', timestamp: 1 });
    expect(w.err.join('\n')).toContain(
      "failing: load-failure ratio 100.0 % (80 of 80 loads) against stable's 0.0 %: more than 5 points above",
    );
    expect(w.err.at(-1)).toBe(
      "release: canary next aborted: new pages get build stable once the host's server has read the deployment " +
        '(within its REMOTE_REFRESH_MS, 5 s by default), and a page already open on next switches to stable at its ' +
        'first navigation after that read; the canary was served for 15.0 s',
    );
    expect(w.aborts).toEqual([
      `the release run judged it failing: ${FAILING.kind === 'failing' ? FAILING.reasons[0] : ''}`,
    ]);
    // One signal alone decided: the output says so plainly.
    expect(w.err).toContain(
      "release: the abort is NOT corroborated: one signal alone decided, no second one agrees; aborting, as a canary in doubt is safer off than on: verify it (the dashboard, npm run canary status, the remote's server logs) before you trust it",
    );
  });

  it('says which second signal corroborates an abort when one does', async () => {
    const w = world();
    const corroborated: Verdict = { ...FAILING, corroboration: 'load failures and error pages agree' } as Verdict;
    await runRelease(optionsOf(w), depsOf(w, true, [HEALTHY, corroborated]));
    expect(w.err).toContain('release: the abort is corroborated: load failures and error pages agree');
    expect(w.err.join('\n')).not.toContain('NOT corroborated');
  });

  it('changes nothing current when the gate fails: the build stays staged', async () => {
    const w = world();
    const result = await runRelease(optionsOf(w), depsOf(w, false, []));
    expect(result.outcome).toBe('gate-failed');
    expect(w.calls).toEqual(['stage /work/remote-gifts/dist @0s', 'gate next']);
    expect(w.state).toEqual({ id: 'stable', timestamp: 1 });
    expect(w.err).toContain('release: gate FAIL /game: uncaught exception: boom');
  });

  it('waits another interval while the sample is too small, then stops where it is, the canary left at its step', async () => {
    const w = world();
    const result = await runRelease(
      optionsOf(w),
      depsOf(w, true, [HEALTHY, HEALTHY, INCONCLUSIVE, INCONCLUSIVE, INCONCLUSIVE]),
    );
    expect(result).toEqual({ outcome: 'stopped-inconclusive', buildId: 'next', percent: 50 });
    expect(w.calls.filter((call) => call.startsWith('analyse'))).toHaveLength(5);
    expect(w.calls).not.toContain('promote');
    expect(w.state.canary).toMatchObject({ id: 'next', percent: 50 });
    expect(w.err.at(-1)).toContain('stopped where it is after 3 inconclusive analyses: canary next stays at 50 %');
  });

  it('goes on once an inconclusive step has its sample', async () => {
    const w = world();
    const result = await runRelease(
      optionsOf(w, { steps: [20, 100] }),
      depsOf(w, true, [HEALTHY, INCONCLUSIVE, HEALTHY, HEALTHY]),
    );
    expect(result.outcome).toBe('promoted');
    expect(w.calls).toContain('set 100 @30s');
  });

  it('never promotes blind: Prometheus unreachable stops the run where it is, or before the canary starts', async () => {
    const w = world();
    expect(await runRelease(optionsOf(w), depsOf(w, true, [HEALTHY, HEALTHY, UNREACHABLE]))).toEqual({
      outcome: 'stopped-unreachable',
      buildId: 'next',
      percent: 50,
    });
    expect(w.state.canary).toMatchObject({ percent: 50 });
    expect(w.err.join('\n')).toContain('never promoted blind');

    const before = world();
    expect((await runRelease(optionsOf(before), depsOf(before, true, [UNREACHABLE]))).outcome).toBe(
      'stopped-unreachable',
    );
    expect(before.calls).toEqual(['stage /work/remote-gifts/dist @0s', 'gate next', 'analyse since 0s']);
    expect(before.err.at(-1)).toContain('the canary was not started');
  });

  it('stops where it is on a signal, the lock released', async () => {
    const w = world();
    const controller = new AbortController();
    const deps = depsOf(w, true, [HEALTHY, HEALTHY]);
    const sleep = deps.sleep;
    let sleeps = 0;
    deps.sleep = async (ms, signal) => {
      sleeps += 1;
      if (sleeps === 2) controller.abort();
      await sleep(ms, signal);
    };
    const result = await runRelease(optionsOf(w, { signal: controller.signal }), deps);
    expect(result).toEqual({ outcome: 'stopped-by-signal', buildId: 'next', percent: 50 });
    expect(w.state.canary).toMatchObject({ percent: 50 });
    expect(w.locked).toBe(false);
  });

  it('stops before the canary starts when a signal stops the gate', async () => {
    const w = world();
    const deps = depsOf(w, true, []);
    deps.gate = async () => {
      throw new GateStopped();
    };
    expect(await runRelease(optionsOf(w), deps)).toEqual({ outcome: 'stopped-by-signal', buildId: 'next' });
    expect(w.calls).toEqual(['stage /work/remote-gifts/dist @0s']);
    expect(w.state.canary).toBeUndefined();
    expect(w.err.at(-1)).toBe('release: stopped before the canary started; build next stays staged');
  });

  it('records that it judges the canary when it starts it and at least every 30 s of a longer interval', async () => {
    const w = world();
    const result = await runRelease(
      optionsOf(w, { steps: [100], intervalMs: 75_000 }),
      depsOf(w, true, [HEALTHY, HEALTHY]),
    );
    expect(result.outcome).toBe('promoted');
    expect(w.judged).toEqual([0, 30, 60, 75]);
  });

  it('adopts a canary of its build already running: no stage or gate, judged from its percent and start on', async () => {
    for (const over of [{ source: undefined, buildId: 'next' }, {}]) {
      const w = world();
      w.state = { id: 'stable', timestamp: 1, canary: { id: 'next', percent: 50, since: w.clock - 20_000 } };
      const result = await runRelease(optionsOf(w, over), depsOf(w, true, [HEALTHY, HEALTHY, HEALTHY]));
      expect(result).toEqual({ outcome: 'promoted', buildId: 'next', servedMs: 50_000 });
      // Judged at once over its run so far, then its step's first interval from its start too.
      expect(w.calls).toEqual([
        'analyse since -20s',
        'analyse since -20s',
        'set 100 @15s',
        'analyse since 15s',
        'promote @30s',
      ]);
      expect(w.judged).toEqual([0, 15, 30]);
      expect(w.out[0]).toMatch(
        /^release: canary next already runs at 50 % \(since .*, stable stable\): this run judges it from there/,
      );
    }
  });

  it('aborts an adopted canary at once when what its visitors reported since its start fails it', async () => {
    const w = world();
    w.state = { id: 'stable', timestamp: 1, canary: { id: 'next', percent: 50, since: w.clock - 113_000 } };
    const result = await runRelease(optionsOf(w, { source: undefined, buildId: 'next' }), depsOf(w, true, [FAILING]));
    expect(result).toEqual({ outcome: 'aborted', buildId: 'next', servedMs: 113_000 });
    expect(w.calls).toEqual(['analyse since -113s', 'abort @0s']);
    expect(w.err[0]).toMatch(/^release: as taken on, 113\.0 s after its start: failing: load-failure ratio 100\.0 %/);
    expect(w.aborts).toEqual([expect.stringContaining('the release run judged it failing: load-failure ratio')]);
  });

  it('adopts a canary at 0 % from the first step, and leaves one it cannot judge as it is', async () => {
    const w = world();
    w.state = { id: 'stable', timestamp: 1, canary: { id: 'next', percent: 0, since: w.clock } };
    await runRelease(optionsOf(w, { steps: [10, 100] }), depsOf(w, true, [HEALTHY, FAILING]));
    expect(w.calls).toEqual(['analyse since 0s', 'set 10 @0s', 'analyse since 0s', 'abort @15s']);

    const blind = world();
    blind.state = { id: 'stable', timestamp: 1, canary: { id: 'next', percent: 50, since: blind.clock } };
    const result = await runRelease(optionsOf(blind), depsOf(blind, true, [UNREACHABLE]));
    expect(result).toEqual({ outcome: 'stopped-unreachable', buildId: 'next', percent: 50 });
    expect([blind.judged, blind.state.canary?.percent]).toEqual([[], 50]);
    expect(blind.err.at(-1)).toContain('canary next was not taken on and stays at 50 %, judged by nobody');
  });

  it('refuses a deployment with a canary of another build running, and a --build that is not staged, changing nothing', async () => {
    const w = world();
    w.state = { id: 'stable', timestamp: 1, canary: { id: 'other', percent: 10, since: 1 } };
    await expect(runRelease(optionsOf(w), depsOf(w, true, []))).rejects.toThrow(
      `build other is already a canary at 10 % in ${TARGET}, and this run releases build next: one canary at a time`,
    );
    const unstaged = world();
    await expect(
      runRelease(optionsOf(unstaged, { source: undefined, buildId: 'ghost' }), depsOf(unstaged, true, [])),
    ).rejects.toThrow(`build ghost is not staged in ${TARGET}: builds/ghost/ is missing`);
    expect([...w.calls, ...unstaged.calls]).toEqual([]);
  });
});

describe('the release run on a deployment folder, with the deploy and canary commands', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'release-test-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /**
   * A folder with b1 current, the run releasing b2 from its build folder; `verdicts` after the
   * check before the start. At each of the run's waits, `whileWaiting` runs in the test, outside
   * the run (as another process would), before the wait ends.
   */
  async function release(verdicts: Verdict[], whileWaiting: (target: string) => Promise<void> = async () => undefined) {
    const target = join(root, 'srv', 'gifts');
    await deploy({ source: makeBuild(join(root, 'one'), 'b1', 1000), target });
    const w = world();
    const deps = depsOf(w, true, [HEALTHY, ...verdicts]);
    deps.commands = DEPLOYMENT_COMMANDS;
    const waits: (() => void)[] = [];
    let waiting = () => undefined as void;
    deps.sleep = (ms) => {
      w.clock += ms;
      return new Promise<void>((resolve) => {
        waits.push(resolve);
        waiting();
      });
    };
    let done = false;
    const running = runRelease(
      optionsOf(w, { target, source: makeBuild(join(root, 'two'), 'b2', 2000), steps: [50, 100] }),
      deps,
    ).finally(() => {
      done = true;
      waiting();
    });
    for (;;) {
      if (waits.length === 0) await new Promise<void>((resolve) => (waiting = resolve));
      const wake = waits.shift();
      if (!wake) break;
      await whileWaiting(target);
      wake();
      if (done) break;
    }
    const result = await running;
    const latest = JSON.parse(read(join(target, 'builds/latest.json'))) as Record<string, unknown>;
    return { result, latest, target, w };
  }

  it('holds the deployment’s lock for the whole run: a deploy meanwhile is refused, naming the release', async () => {
    const refusals: string[] = [];
    const { result, latest, target } = await release([HEALTHY, HEALTHY], async (folder) => {
      const third = makeBuild(join(root, `three-${refusals.length}`), 'b3', 3000);
      refusals.push(
        await deploy({ source: third, target: folder }).then(
          () => 'deployed',
          (error: Error) => error.message,
        ),
      );
    });
    expect(result.outcome).toBe('promoted');
    expect(refusals).toEqual([
      expect.stringContaining('is being changed by another run: release of the gifts remote'),
      expect.stringContaining('is being changed by another run: release of the gifts remote'),
    ]);
    expect(latest).toMatchObject({ id: 'b2', previous: 'b1' });
    expect(latest.canary).toBeUndefined();
    expect(read(join(target, 'remoteEntry.js'))).toContain('b2');
    expect(listFiles(target)).not.toContain('.deploy.lock');
  });

  it('aborts a failing canary: the stable build serves everyone again, the canary’s files kept, the abort recorded', async () => {
    const judged: unknown[] = [];
    const { result, latest, target } = await release([FAILING], async (folder) => {
      judged.push((JSON.parse(read(join(folder, 'builds/latest.json'))) as { canary?: unknown }).canary);
    });
    expect(result.outcome).toBe('aborted');
    expect(latest).toMatchObject({ id: 'b1' });
    expect(latest.canary).toBeUndefined();
    expect(read(join(target, 'remoteEntry.js'))).toContain('b1');
    expect(listFiles(target)).toContain('builds/b2/remoteEntry.js');
    // While it waited, the canary named its judge.
    expect(judged).toEqual([
      expect.objectContaining({
        id: 'b2',
        judgedAt: expect.any(Number),
        judgedBy: expect.stringContaining('npm run release'),
      }),
    ]);
    expect(await readCanaryAborts(target)).toEqual([
      {
        id: 'b2',
        at: expect.any(Number),
        by: 'npm run release',
        reason: `the release run judged it failing: ${FAILING.kind === 'failing' ? FAILING.reasons[0] : ''}`,
        percent: 50,
      },
    ]);
  });

  it('adopts a canary started by hand of the build it releases, and promotes it', async () => {
    const target = join(root, 'srv', 'gifts');
    await deploy({ source: makeBuild(join(root, 'one'), 'b1', 1000), target });
    await startCanary({ target, source: makeBuild(join(root, 'two'), 'b2', 2000), percent: 50 });
    const w = world();
    const deps = depsOf(w, true, [HEALTHY, HEALTHY, HEALTHY]);
    deps.commands = DEPLOYMENT_COMMANDS;
    let judged: unknown;
    deps.sleep = async () => {
      judged ??= (JSON.parse(read(join(target, 'builds/latest.json'))) as { canary?: unknown }).canary;
    };
    const result = await runRelease(
      optionsOf(w, { target, source: undefined, buildId: 'b2', steps: [10, 50, 100] }),
      deps,
    );
    expect(result.outcome).toBe('promoted');
    expect(judged).toMatchObject({ id: 'b2', percent: 50, judgedBy: expect.stringContaining('npm run release') });
    expect(JSON.parse(read(join(target, 'builds/latest.json')))).toMatchObject({ id: 'b2', previous: 'b1' });
    expect(w.out.filter((line) => /^release: step .*: healthy$/.test(line))).toHaveLength(2);
  });
});

describe('npm run release', () => {
  const run = async (argv: string[], env: Record<string, string> = { PREVIEW_KEY: 'k'.repeat(32) }) => {
    const w = world();
    const code = await releaseCommand.main(argv, {
      cwd: '/srv',
      packageDir: '/work/remote-gifts',
      env,
      out: (line) => w.out.push(line),
      err: (line) => w.err.push(line),
      deps: depsOf(w, true, [HEALTHY, FAILING]),
    });
    return { code, w };
  };
  const required = ['remotes/gifts', '--host', 'https://giftbox.example', '--prometheus', 'http://127.0.0.1:9090'];

  it('runs with the target taken from where it was typed, and exits 1 when the canary is aborted', async () => {
    const { code, w } = await run([...required, '--interval', '10s', '--steps', '25,100', '--min-sample', '5']);
    expect(code).toBe(1);
    expect(w.calls).toEqual([
      'stage /work/remote-gifts/dist @0s',
      'gate next',
      'analyse since 0s',
      'start next 25 @0s',
      'analyse since 0s',
      'abort @10s',
    ]);
  });

  it('refuses bad input before anything runs', async () => {
    const cases: [string[], string][] = [
      [required.slice(0, 3), '--prometheus is missing'],
      [[...required, '--steps', '50,10'], '--steps must increase'],
      [[...required, '--steps', '0,100'], 'whole percents from 1 to 100'],
      [[...required, '--interval', 'soon'], '--interval must be a duration'],
      [[...required, '--from', 'dist', '--build', 'b1'], 'give --from or --build, not both'],
      [[...required, '--min-sample', '-1'], '--min-sample needs a value'],
    ];
    for (const [argv, message] of cases) {
      const { code, w } = await run(argv);
      expect([code, w.err[0]]).toEqual([1, expect.stringContaining(message)]);
      expect(w.calls).toEqual([]);
    }
    const { code, w } = await run(required, {});
    expect([code, w.err[0]]).toEqual([1, expect.stringContaining('PREVIEW_KEY is not set')]);
  });

  it('reads steps and durations as an operator types them', () => {
    expect(parseSteps('10, 50,100')).toEqual([10, 50, 100]);
    expect(parseDuration('90s', '--interval')).toBe(90_000);
    expect(parseDuration('2m', '--interval')).toBe(120_000);
    expect(parseDuration('1500ms', '--interval')).toBe(1500);
    expect(() => parseDuration('10ms', '--interval')).toThrow('at least 1s');
  });
});
