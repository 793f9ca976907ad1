/** @jest-environment node */
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { abortCanary, startCanary } from './canary';
import { HISTORY_LENGTH } from 'shared/deployment';
import { deploy, type FileAction } from './deploy';
import { listBuilds, rollback, RollbackError, rollbackCommand } from './rollback';
import { listFiles, makeBuild, read } from './testing/fake-remote-build';

let root: string;
let target: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'rollback-test-'));
  target = join(root, 'srv', 'content');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Deploys builds b1, b2… (built at 1000, 2000…, each with its own payload) in that order. */
async function deployBuilds(count: number, options: { keepBuilds?: number } = {}): Promise<void> {
  for (let n = 1; n <= count; n += 1) {
    const dist = makeBuild(join(root, `dist-${n}`), `b${n}`, n * 1000, `text of build ${n}`);
    await deploy({ source: dist, target, keepBuilds: options.keepBuilds });
  }
}

function currentId(): string {
  return (JSON.parse(read(join(target, 'builds/latest.json'))) as { id: string }).id;
}

/** What a visitor's browser gets at the root: the entry, manifest, payload and latest.json. */
function servedBuild(): Record<string, string> {
  return Object.fromEntries(
    ['remoteEntry.js', 'mf-manifest.json', 'mf-stats.json', 'payload/about.json'].map((file) => [
      file,
      read(join(target, file)),
    ]),
  );
}

function buildAsBuilt(n: number): Record<string, string> {
  const dist = join(root, `dist-${n}`);
  return Object.fromEntries(Object.keys(servedBuild()).map((file) => [file, read(join(dist, file))]));
}

describe('rollback', () => {
  it('makes the build before the current one current again, and removes nothing', async () => {
    await deployBuilds(2);
    const before = listFiles(target);

    const result = await rollback({ target });

    expect(result).toMatchObject({ buildId: 'b1', previousId: 'b2' });
    expect(currentId()).toBe('b1');
    expect(JSON.parse(read(join(target, 'builds/latest.json')))).toEqual({ id: 'b1', timestamp: 1000 });
    // Build 1's entry files and payload, byte for byte, at the root.
    expect(servedBuild()).toEqual(buildAsBuilt(1));
    // Pages still running build 2 find its chunks; no file is gone.
    expect(listFiles(target)).toEqual(before);
    expect(existsSync(join(target, '__federation_expose_AboutPage.b2.js'))).toBe(true);
  });

  it('goes in a deploy’s order: the build’s files, then the entry files, latest.json last', async () => {
    await deployBuilds(2);
    const order: string[] = [];

    await rollback({
      target,
      onFile: (file: string, action: FileAction) => {
        if (action === 'unchanged') return;
        order.push(file);
        // Until the very end, a version check still sees build 2.
        if (file !== 'builds/latest.json') expect(currentId()).toBe('b2');
      },
    });

    expect(order).toEqual([
      'payload/about.json',
      'remoteEntry.js',
      'mf-stats.json',
      'mf-manifest.json',
      'builds/latest.json',
    ]);
  });

  it('restores a file as a new file, not with the old copy’s modification time, so HTTP validators change', async () => {
    await deployBuilds(2);
    // Build 1 was deployed a day ago.
    const dayAgo = new Date(Date.now() - 24 * 60 * 60 * 1000);
    for (const file of listFiles(join(target, 'builds/b1')))
      utimesSync(join(target, 'builds/b1', file), dayAgo, dayAgo);
    const inode = statSync(join(target, 'remoteEntry.js')).ino;

    await rollback({ target });

    const stats = statSync(join(target, 'remoteEntry.js'));
    expect(read(join(target, 'remoteEntry.js'))).toBe(read(join(target, 'builds/b1/remoteEntry.js')));
    expect(stats.ino).not.toBe(inode);
    expect(stats.ino).not.toBe(statSync(join(target, 'builds/b1/remoteEntry.js')).ino);
    // Build 1's bytes with a time after build 2's: a cache holding build 2's entry is never told
    // it has not been modified since.
    expect(stats.mtimeMs).toBeGreaterThan(dayAgo.getTime());
  });

  it('puts the restored build first in builds/history.json, after latest.json', async () => {
    await deployBuilds(3);
    const history = () => (JSON.parse(read(join(target, 'builds/history.json'))) as { ids: string[] }).ids;
    expect(history()).toEqual(['b3', 'b2', 'b1']);

    await rollback({
      target,
      onFile: (file) => {
        if (file === 'builds/latest.json') expect(history()).toEqual(['b3', 'b2', 'b1']);
      },
    });
    expect(history()).toEqual(['b2', 'b3', 'b1']);
    await rollback({ target, buildId: 'b3' });
    expect(history()).toEqual(['b3', 'b2', 'b1']);
  });

  it('goes back to a named build, older or newer', async () => {
    await deployBuilds(3);

    await rollback({ target, buildId: 'b1' });
    expect(currentId()).toBe('b1');
    expect(servedBuild()).toEqual(buildAsBuilt(1));

    await rollback({ target, buildId: 'b3' });
    expect(currentId()).toBe('b3');
    expect(servedBuild()).toEqual(buildAsBuilt(3));
  });

  it('by default, each rollback goes one build further back by build time, until there is none', async () => {
    await deployBuilds(3);

    expect((await rollback({ target })).buildId).toBe('b2');
    expect((await rollback({ target })).buildId).toBe('b1');
    await expect(rollback({ target })).rejects.toThrow(`no build in ${target} was built before the current one, b1`);
    expect(currentId()).toBe('b1');
  });

  it('a deploy after a rollback is a deploy like any other', async () => {
    await deployBuilds(2);
    await rollback({ target });

    await deploy({ source: makeBuild(join(root, 'dist-3'), 'b3', 3000), target });

    expect(currentId()).toBe('b3');
    expect((await rollback({ target })).buildId).toBe('b2');
  });

  it('naming the current build puts its files back as its copy has them', async () => {
    await deployBuilds(2);

    const result = await rollback({ target, buildId: 'b2' });

    expect(result).toMatchObject({ buildId: 'b2', previousId: 'b2', added: [], replaced: [] });
    expect(servedBuild()).toEqual(buildAsBuilt(2));
  });

  it('refuses an unknown build, changing nothing', async () => {
    await deployBuilds(2);
    const before = servedBuild();

    await expect(rollback({ target, buildId: 'b9' })).rejects.toThrow(`build b9 was never deployed to ${target}`);
    expect(servedBuild()).toEqual(before);
  });

  it('refuses a build whose files were pruned, changing nothing', async () => {
    await deployBuilds(3, { keepBuilds: 2 });
    const before = servedBuild();

    const refusal = rollback({ target, buildId: 'b1' });

    await expect(refusal).rejects.toThrow(RollbackError);
    await expect(refusal).rejects.toThrow(
      /build b1 cannot be made current again: its files are no longer in .* \(builds\/b1\/ is missing; pruned by deploy --keep-builds/,
    );
    expect(servedBuild()).toEqual(before);
    expect(currentId()).toBe('b3');
  });

  it('refuses a build whose copy is incomplete, naming what is missing', async () => {
    await deployBuilds(2);
    rmSync(join(target, 'builds/b1/190.b1.js'));

    await expect(rollback({ target })).rejects.toThrow(
      /the build before the current one, b1, cannot be made current again: .*missing: 190\.b1\.js/,
    );
    expect(currentId()).toBe('b2');
  });

  it('refuses a folder that is not a deployment', async () => {
    await expect(rollback({ target })).rejects.toThrow(`${target} does not exist`);
    mkdirSync(target, { recursive: true });
    await expect(rollback({ target })).rejects.toThrow(
      `${target} is not a deployment: builds/latest.json is missing (deploy a build there first)`,
    );
  });
});

describe('listBuilds', () => {
  it('lists the builds newest first, which is current, and which can no longer be made current', async () => {
    await deployBuilds(3, { keepBuilds: 2 });
    await rollback({ target });

    const deployment = await listBuilds(target);

    expect(deployment.currentId).toBe('b2');
    expect(deployment.builds).toEqual([
      { id: 'b3', timestamp: 3000, current: false },
      { id: 'b2', timestamp: 2000, current: true },
      { id: 'b1', timestamp: 1000, current: false, problem: 'builds/b1/ is missing' },
    ]);
  });
});

describe('rollbackCommand', () => {
  function io() {
    const outLines: string[] = [];
    const errLines: string[] = [];
    return {
      cwd: root,
      out: (line: string) => outLines.push(line),
      err: (line: string) => errLines.push(line),
      output: () => outLines.join('\n'),
      errors: () => errLines.join('\n'),
    };
  }

  it('rolls back a target relative to where it was run, then lists the builds', async () => {
    await deployBuilds(2);
    const cli = io();

    expect(await rollbackCommand.main(['srv/content'], cli)).toBe(0);

    expect(currentId()).toBe('b1');
    expect(cli.errors()).toBe('');
    expect(cli.output()).toContain(
      `rollback: build b1 (built ${new Date(1000).toISOString()}) is current again in ${target}, in place of build b2`,
    );
    expect(cli.output()).toContain(
      [
        `Builds in ${target}, newest first:`,
        `  b2  built ${new Date(2000).toISOString()}`,
        `* b1  built ${new Date(1000).toISOString()}  current`,
      ].join('\n'),
    );
  });

  it('says so when it drops a running canary', async () => {
    await deployBuilds(2);
    await startCanary({ target, source: makeBuild(join(root, 'dist-3'), 'b3', 3000), percent: 25 });
    const cli = io();

    expect(await rollbackCommand.main([target], cli)).toBe(0);

    expect(cli.output()).toContain(
      'rollback: the canary, build b3 (25 % of visitors), was dropped: its visitors get build b1 on their next ' +
        'navigation; its files stay',
    );
    expect(JSON.parse(read(join(target, 'builds/latest.json')))).toEqual({ id: 'b1', timestamp: 1000 });
  });

  it('takes the build id as its second argument', async () => {
    await deployBuilds(3);
    const cli = io();

    expect(await rollbackCommand.main([target, 'b1'], cli)).toBe(0);
    expect(currentId()).toBe('b1');
  });

  it('with --list, only lists', async () => {
    await deployBuilds(3, { keepBuilds: 2 });
    const cli = io();

    expect(await rollbackCommand.main(['--list', target], cli)).toBe(0);

    expect(currentId()).toBe('b3');
    expect(cli.output()).toBe(
      [
        `Builds in ${target}, newest first:`,
        `* b3  built ${new Date(3000).toISOString()}  current`,
        `  b2  built ${new Date(2000).toISOString()}  previous: pages fall back to it`,
        `  b1  built ${new Date(1000).toISOString()}  files pruned: cannot be made current`,
      ].join('\n'),
    );
  });

  it('with --list, marks the running canary and the staged builds', async () => {
    await deployBuilds(2);
    await startCanary({ target, source: makeBuild(join(root, 'dist-3'), 'b3', 3000), percent: 25 });
    await deploy({ source: makeBuild(join(root, 'dist-4'), 'b4', 4000), target, stage: true });
    const cli = io();

    expect(await rollbackCommand.main([target, '--list'], cli)).toBe(0);

    expect(cli.output()).toBe(
      [
        `Builds in ${target}, newest first:`,
        `  b4  built ${new Date(4000).toISOString()}  staged: never current`,
        `  b3  built ${new Date(3000).toISOString()}  canary, 25 % of visitors`,
        `* b2  built ${new Date(2000).toISOString()}  current`,
        `  b1  built ${new Date(1000).toISOString()}  previous: pages fall back to it`,
      ].join('\n'),
    );
  });

  it('with --list, shows an aborted canary with when, by what and why it was aborted, in place of staged', async () => {
    await deployBuilds(2);
    await startCanary({ target, source: makeBuild(join(root, 'dist-3'), 'b3', 3000), percent: 25 });
    await abortCanary({
      target,
      by: 'npm run release',
      reason: 'error-page ratio 40.0 % against stable’s 0.0 %',
      now: () => 7000,
    });
    await startCanary({ target, source: makeBuild(join(root, 'dist-4'), 'b4', 4000), percent: 10 });
    await abortCanary({ target, now: () => 8000 });
    const cli = io();

    expect(await rollbackCommand.main([target, '--list'], cli)).toBe(0);

    expect(cli.output()).toBe(
      [
        `Builds in ${target}, newest first:`,
        `  b4  built ${new Date(4000).toISOString()}  aborted canary (${new Date(8000).toISOString()}, at 10 %, by npm run canary abort): aborted by hand`,
        `  b3  built ${new Date(3000).toISOString()}  aborted canary (${new Date(7000).toISOString()}, at 25 %, by npm run release): error-page ratio 40.0 % against stable’s 0.0 %`,
        `* b2  built ${new Date(2000).toISOString()}  current`,
        `  b1  built ${new Date(1000).toISOString()}  previous: pages fall back to it`,
      ].join('\n'),
    );
  });

  it('records the canary a rollback drops as aborted by it, and lists it so', async () => {
    await deployBuilds(2);
    await startCanary({ target, source: makeBuild(join(root, 'dist-3'), 'b3', 3000), percent: 25 });
    const cli = io();

    expect(await rollbackCommand.main([target], cli)).toBe(0);

    expect(cli.output()).toMatch(
      / {2}b3 {2}built .+ {2}aborted canary \(.+, at 25 %, by npm run rollback\): dropped by the rollback to b1/,
    );
  });

  it(`with --list, calls no build staged that was current before the last ${HISTORY_LENGTH}`, async () => {
    await deployBuilds(HISTORY_LENGTH + 2);
    const cli = io();

    expect(await rollbackCommand.main([target, '--list'], cli)).toBe(0);

    expect(cli.output()).not.toContain('staged');
    expect(cli.output()).toMatch(new RegExp(`\n {2}b1 +built ${new Date(1000).toISOString()}$`));
  });

  it.each([
    [['b9'], /rollback: build b9 was never deployed to .*\nBuilds in .*, newest first:\n\* b2 .* current\n {2}b1 /],
    [['b1'], /rollback: build b1 cannot be made current again: its files are no longer in .*\nBuilds in /],
  ])('exits 1 on a build it cannot make current (%j), listing the builds', async (args, message) => {
    await deployBuilds(2);
    rmSync(join(target, 'builds/b1'), { recursive: true });
    const cli = io();

    expect(await rollbackCommand.main([target, ...args], cli)).toBe(1);

    expect(cli.errors()).toMatch(message);
    expect(currentId()).toBe('b2');
  });

  it('exits 1 on a folder that is not a deployment', async () => {
    mkdirSync(join(root, 'empty'));
    const cli = io();

    expect(await rollbackCommand.main(['empty'], cli)).toBe(1);
    expect(cli.errors()).toBe(
      `rollback: ${join(root, 'empty')} is not a deployment: builds/latest.json is missing (deploy a build there first)`,
    );
  });

  it.each([
    [[], /the target folder is missing[\s\S]*Usage: npm run rollback/],
    [['a', 'b', 'c'], /give a target folder and at most one build id/],
    [['--list', 'a', 'b'], /--list takes the target folder only/],
    [['--force', 'a'], /unknown option --force/],
  ])('exits 1 on bad arguments %j', async (argv, message) => {
    const cli = io();
    expect(await rollbackCommand.main(argv, cli)).toBe(1);
    expect(cli.errors()).toMatch(message);
  });

  it('prints the usage with --help', async () => {
    const cli = io();
    expect(await rollbackCommand.main(['--help'], cli)).toBe(0);
    expect(cli.output()).toMatch(/^Usage: npm run rollback -w <remote or host> -- <target folder> \[<build id>\]/);
  });
});
