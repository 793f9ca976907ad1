/** @jest-environment node */
import { rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import {
  ABORTED_BY_HAND,
  abortCanary,
  promoteCanary,
  readDeployment,
  recordJudgement,
  canaryCommand,
  setCanaryPercent,
  stageBuild,
  startCanary,
  withDeploymentLock,
} from './canary';
import { CANARY_ABORTS_FILE, readCanaryAborts } from './canary-aborts';
import { deploy } from './deploy';
import { rollback } from './rollback';
import { deploySandbox } from './testing/deploy-sandbox';
import { listFiles, read, write } from './testing/fake-remote-build';

const sandbox = deploySandbox('canary-test-', 'content');
const { build, latest, history, snapshot } = sandbox;

/** b1 then b2 deployed (b2 stable, b1 previous), b3 staged. */
async function stableWithStaged(): Promise<void> {
  await deploy({ source: build(1), target: sandbox.target });
  await deploy({ source: build(2), target: sandbox.target });
  await stageBuild({ source: build(3), target: sandbox.target });
}

describe('startCanary', () => {
  it('starts a staged build for a share of visitors, keeping the stable build and the one before it', async () => {
    await stableWithStaged();
    const unchanged = snapshot();

    const before = Date.now();
    const { state } = await startCanary({ target: sandbox.target, buildId: 'b3', percent: 10 });

    expect(state).toEqual({
      id: 'b2',
      timestamp: 2000,
      previous: 'b1',
      canary: { id: 'b3', percent: 10, since: expect.any(Number) },
    });
    expect(state.canary?.since).toBeGreaterThanOrEqual(before);
    expect(await readDeployment(sandbox.target)).toEqual(state);
    // Only builds/latest.json changed: the files visitors of the stable build get are b2's.
    const after = snapshot();
    expect(Object.keys(after)).toEqual(Object.keys(unchanged));
    expect(Object.keys(after).filter((file) => after[file] !== unchanged[file])).toEqual(['builds/latest.json']);
  });

  it('stages a build folder first with --from, then starts it', async () => {
    await deploy({ source: build(1), target: sandbox.target });
    const { state, staged } = await startCanary({ target: sandbox.target, source: build(2), percent: 50 });
    expect(staged?.buildId).toBe('b2');
    expect(state.canary).toMatchObject({ id: 'b2', percent: 50 });
    expect(read(join(sandbox.target, 'builds/b2/remoteEntry.js'))).toContain('b2');
    // The stable build at the root is still b1's.
    expect(read(join(sandbox.target, 'remoteEntry.js'))).toContain('b1');
    expect(history()).toEqual(['b1']);
  });

  it('refuses an unknown build, an incomplete one, the stable build and a second canary, changing nothing', async () => {
    await stableWithStaged();
    await stageBuild({ source: build(4), target: sandbox.target });
    rmSync(join(sandbox.target, 'builds/b4/190.b4.js'));
    const before = snapshot();

    await expect(startCanary({ target: sandbox.target, buildId: 'b9', percent: 10 })).rejects.toThrow(
      `build b9 was never deployed or staged in ${sandbox.target} (there is no builds/meta/b9.json): stage it first`,
    );
    await expect(startCanary({ target: sandbox.target, buildId: 'b4', percent: 10 })).rejects.toThrow(
      /build b4 cannot be started as a canary: its copy .* is not whole \(.*missing: 190\.b4\.js/,
    );
    await expect(startCanary({ target: sandbox.target, buildId: 'b2', percent: 10 })).rejects.toThrow(
      `build b2 is the stable build of ${sandbox.target}: a canary is another build`,
    );
    await expect(startCanary({ target: sandbox.target, buildId: 'b3', percent: 101 })).rejects.toThrow(
      'a whole number from 0 to 100, got 101',
    );
    expect(snapshot()).toEqual(before);

    await startCanary({ target: sandbox.target, buildId: 'b3', percent: 10 });
    const running = snapshot();
    await expect(startCanary({ target: sandbox.target, source: build(5), percent: 10 })).rejects.toThrow(
      `build b3 is already running as a canary for 10 % of visitors in ${sandbox.target}: promote it or abort it first`,
    );
    // Refused before b5 was staged.
    expect(snapshot()).toEqual(running);
    // The running canary started again: its share changes, its start does not.
    const since = latest().canary as { since: number };
    const { state } = await startCanary({ target: sandbox.target, buildId: 'b3', percent: 20 });
    expect(state.canary).toEqual({ id: 'b3', percent: 20, since: since.since });
  });

  it('refuses a folder without a stable build', async () => {
    await stageBuild({ source: build(1), target: sandbox.target });
    await expect(startCanary({ target: sandbox.target, buildId: 'b1', percent: 10 })).rejects.toThrow(
      'is not a deployment',
    );
  });
});

describe('setCanaryPercent, promoteCanary and abortCanary', () => {
  it('changes the share and keeps the rest of the state, fields it does not know included', async () => {
    await stableWithStaged();
    await startCanary({ target: sandbox.target, buildId: 'b3', percent: 10 });
    write(join(sandbox.target, 'builds/latest.json'), JSON.stringify({ ...latest(), note: 'kept' }));

    const { state } = await setCanaryPercent({ target: sandbox.target, percent: 50 });

    expect(state.canary?.percent).toBe(50);
    expect(latest()).toEqual({ id: 'b2', timestamp: 2000, previous: 'b1', canary: { ...state.canary }, note: 'kept' });
    await expect(setCanaryPercent({ target: sandbox.target, percent: -1 })).rejects.toThrow('got -1');
  });

  it('promotes the canary: its own copy published at the root in a deploy’s order, the old stable build as previous', async () => {
    await stableWithStaged();
    await startCanary({ target: sandbox.target, buildId: 'b3', percent: 50 });
    const order: string[] = [];

    const result = await promoteCanary({ target: sandbox.target, onFile: (file) => order.push(file) });

    expect(result).toMatchObject({ buildId: 'b3', previousId: 'b2' });
    expect(latest()).toEqual({ id: 'b3', timestamp: 3000, previous: 'b2' });
    for (const file of ['remoteEntry.js', 'mf-manifest.json', 'payload/about.json']) {
      expect(read(join(sandbox.target, file))).toBe(read(join(sandbox.root, 'dist-3', file)));
    }
    // The entry files after every other file, latest.json last, then the history.
    expect(order.slice(-4)).toEqual(['remoteEntry.js', 'mf-stats.json', 'mf-manifest.json', 'builds/latest.json']);
    expect(history()).toEqual(['b3', 'b2', 'b1']);
    // Nothing was removed: pages still running b2 find its chunks.
    expect(listFiles(sandbox.target)).toEqual(expect.arrayContaining(['190.b2.js', 'builds/b2/remoteEntry.js']));
  });

  it('aborts the canary: only the canary goes, its files stay', async () => {
    await stableWithStaged();
    await startCanary({ target: sandbox.target, buildId: 'b3', percent: 50 });

    const result = await abortCanary({ target: sandbox.target, reason: 'error pages up' });

    expect(result).toMatchObject({ aborted: { id: 'b3', percent: 50 }, reason: 'error pages up' });
    expect(latest()).toEqual({ id: 'b2', timestamp: 2000, previous: 'b1' });
    expect(read(join(sandbox.target, 'builds/b3/remoteEntry.js'))).toContain('b3');
    expect(history()).toEqual(['b2', 'b1']);
    expect(await readCanaryAborts(sandbox.target)).toEqual([
      { id: 'b3', at: expect.any(Number), by: 'npm run canary abort', reason: 'error pages up', percent: 50 },
    ]);
  });

  it('records an abort without a reason as aborted by hand, newest first', async () => {
    await stableWithStaged();
    await startCanary({ target: sandbox.target, buildId: 'b3', percent: 50 });
    await abortCanary({ target: sandbox.target, reason: 'first', now: () => 5 });
    await startCanary({ target: sandbox.target, buildId: 'b3', percent: 10 });
    await abortCanary({ target: sandbox.target, by: 'on-call', reason: '  ', now: () => 6 });
    expect(await readCanaryAborts(sandbox.target)).toEqual([
      { id: 'b3', at: 6, by: 'on-call', reason: ABORTED_BY_HAND, percent: 10 },
      { id: 'b3', at: 5, by: 'npm run canary abort', reason: 'first', percent: 50 },
    ]);
    // Dot-named: never served.
    expect(CANARY_ABORTS_FILE).toMatch(/^builds\/\./);
  });

  it('records a judgement of the running canary only, keeping it when the canary is started again', async () => {
    await stableWithStaged();
    await startCanary({ target: sandbox.target, buildId: 'b3', percent: 10 });
    await recordJudgement({ target: sandbox.target, id: 'b3', by: 'npm run release', at: 42 });
    await startCanary({ target: sandbox.target, buildId: 'b3', percent: 20 });
    expect(latest().canary).toEqual({
      id: 'b3',
      percent: 20,
      since: expect.any(Number),
      judgedAt: 42,
      judgedBy: 'npm run release',
    });
    await expect(recordJudgement({ target: sandbox.target, id: 'b9', by: 'x', at: 43 })).rejects.toThrow(
      `build b3, not b9, is the canary running in ${sandbox.target}`,
    );
  });

  it('refuses each without a running canary, changing nothing', async () => {
    await stableWithStaged();
    const before = snapshot();
    const none = `no canary runs in ${sandbox.target} (its stable build is b2)`;
    await expect(setCanaryPercent({ target: sandbox.target, percent: 10 })).rejects.toThrow(none);
    await expect(promoteCanary({ target: sandbox.target })).rejects.toThrow(none);
    await expect(abortCanary({ target: sandbox.target })).rejects.toThrow(none);
    expect(snapshot()).toEqual(before);
  });

  it('refuses a deploy while a canary runs, naming it; a rollback drops it and says so', async () => {
    await stableWithStaged();
    await startCanary({ target: sandbox.target, buildId: 'b3', percent: 10 });
    const before = snapshot();

    await expect(deploy({ source: build(4), target: sandbox.target })).rejects.toThrow(
      `build b3 is running as a canary for 10 % of visitors in ${sandbox.target}: promote it or abort it first`,
    );
    await expect(deploy({ buildId: 'b3', target: sandbox.target })).rejects.toThrow('build b3 is running as a canary');
    expect(snapshot()).toEqual(before);
    // Staging touches nothing current: allowed.
    await stageBuild({ source: build(4), target: sandbox.target });

    const result = await rollback({ target: sandbox.target });
    expect(result).toMatchObject({ buildId: 'b1', previousId: 'b2', droppedCanary: { id: 'b3', percent: 10 } });
    expect(latest()).toEqual({ id: 'b1', timestamp: 1000 });
  });
});

describe('withDeploymentLock', () => {
  it('lets a release run hold the lock across several commands, and refuses anyone else meanwhile', async () => {
    await stableWithStaged();
    // Another run: a deploy started outside the release's call chain, once the release holds the lock.
    let held = () => undefined as void;
    const outside = new Promise<void>((resolve) => {
      held = resolve;
    }).then(() => deploy({ source: build(4), target: sandbox.target, stage: true }));
    await withDeploymentLock(sandbox.target, 'release', async () => {
      await startCanary({ target: sandbox.target, buildId: 'b3', percent: 10 });
      held();
      await expect(outside).rejects.toThrow(
        new RegExp(
          `${sandbox.target} is being changed by another run: release \\(process ${process.pid} on ${hostname()}, since `,
        ),
      );
      await setCanaryPercent({ target: sandbox.target, percent: 50 });
      await promoteCanary({ target: sandbox.target });
    });
    expect(latest()).toEqual({ id: 'b3', timestamp: 3000, previous: 'b2' });
    expect(listFiles(sandbox.target).filter((file) => file.startsWith('.'))).toEqual([]);
  });
});

describe('canaryCommand', () => {
  function io() {
    const outLines: string[] = [];
    const errLines: string[] = [];
    return {
      cwd: sandbox.root,
      packageDir: join(sandbox.root, 'remote-content'),
      out: (line: string) => outLines.push(line),
      err: (line: string) => errLines.push(line),
      output: () => outLines.join('\n'),
      errors: () => errLines.join('\n'),
    };
  }

  it('starts, steps, shows and promotes a canary in a target relative to where it was run', async () => {
    await stableWithStaged();
    const cli = io();

    expect(await canaryCommand.main(['srv/content', 'start', 'b3', '--percent', '10'], cli)).toBe(0);
    expect(await canaryCommand.main(['srv/content', 'set', '50'], cli)).toBe(0);
    expect(await canaryCommand.main(['srv/content', 'status'], cli)).toBe(0);
    expect(await canaryCommand.main(['srv/content', 'promote'], cli)).toBe(0);

    expect(cli.errors()).toBe('');
    expect(cli.output()).toContain(`canary: build b3 runs for 10 % of visitors in ${sandbox.target} (stable: b2)`);
    expect(cli.output()).toContain(
      `canary: nobody judges build b3 yet: have the release run judge it from this percent on (npm run release ` +
        `-w remote-content -- ${sandbox.target} --build b3 --host <URL> --prometheus <URL>), or promote or abort it yourself; a ` +
        'canary nobody judges for 3 minutes raises the CanaryUnjudged alert',
    );
    expect(cli.output()).toContain('  judged    never: no release run has judged it');
    expect(cli.output()).toContain(`canary: build b3 runs for 50 % of visitors in ${sandbox.target}`);
    expect(cli.output()).toMatch(
      new RegExp(
        [
          `Deployment in ${sandbox.target}:`,
          `  stable    b2 \\(built ${new Date(2000).toISOString()}\\)`,
          `  previous  b1 \\(built ${new Date(1000).toISOString()}\\)`,
          `  canary    b3 \\(built ${new Date(3000).toISOString()}\\) for 50 % of visitors, since \\d{4}-.+Z`,
        ].join('\n'),
      ),
    );
    expect(cli.output()).toContain(`canary: build b3 is the stable build of ${sandbox.target}, in place of build b2`);
  });

  it('aborts with a reason, and starts from a build folder', async () => {
    await deploy({ source: build(1), target: sandbox.target });
    build(2);
    const cli = io();
    expect(await canaryCommand.main([sandbox.target, 'start', '--from', 'dist-2', '--percent=5'], cli)).toBe(0);
    expect(await canaryCommand.main([sandbox.target, 'abort', '--reason', 'LCP worse'], cli)).toBe(0);
    expect(cli.output()).toContain(`canary: build b2 staged in ${sandbox.target} (builds/b2/)`);
    expect(cli.output()).toContain(
      `canary: build b2 aborted in ${sandbox.target} (LCP worse): new pages get build b1 once the host's servers have read ` +
        'the deployment, and a page open on b2 switches to it at its first navigation after that',
    );
    expect(latest()).toEqual({ id: 'b1', timestamp: 1000 });
    expect(await readCanaryAborts(sandbox.target)).toEqual([
      expect.objectContaining({
        id: 'b2',
        by: expect.stringMatching(/^npm run canary abort by .+ on /),
        reason: 'LCP worse',
      }),
    ]);
  });

  it.each([
    [['srv/content'], 'the action is missing'],
    [['srv/content', 'start', 'b3'], '--percent needs a percent'],
    [['srv/content', 'start', '--percent', '10'], 'start takes a build id or --from <build folder>, one of them'],
    [['srv/content', 'set', '150'], 'set is a whole number from 0 to 100, got "150"'],
    [['srv/content', 'promote', '--percent', '3'], 'promote takes no --percent'],
    [['srv/content', 'launch'], 'unknown action "launch"'],
    [['srv/content', 'start', 'b3', '--percent'], '--percent needs a value'],
    [['srv/content', 'abort', '--force'], 'unknown option --force'],
  ])('exits 1 with the usage on %j', async (argv, message) => {
    await stableWithStaged();
    const before = snapshot();
    const cli = io();
    expect(await canaryCommand.main(argv, cli)).toBe(1);
    expect(cli.errors()).toContain(`canary: ${message}`);
    expect(cli.errors()).toContain('Usage: npm run canary');
    expect(snapshot()).toEqual(before);
  });

  it('exits 1 with the reason on a refusal', async () => {
    await stableWithStaged();
    const cli = io();
    expect(await canaryCommand.main([sandbox.target, 'promote'], cli)).toBe(1);
    expect(cli.errors()).toBe(`canary: no canary runs in ${sandbox.target} (its stable build is b2)`);
  });
});
