/** @jest-environment node */
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HISTORY_LENGTH } from 'shared/deployment';
import { deploy, DeployError, type CliIo, type FileAction } from './deploy';
import { deployCommand } from './deploy-command';
import { listBuilds, rollback } from './rollback';
import { listFiles, makeBuild as makeBuildAt, read, write } from './testing/fake-remote-build';

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'deploy-test-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A build's files a deploy publishes: all but the standalone development shell (`index.html`). */
function published(dir: string): string[] {
  return listFiles(dir).filter((file) => file !== 'index.html');
}

/** A build in `{root}/{name}` (see testing/fake-remote-build). */
function makeBuild(name: string, id: string, timestamp: number, payload?: string): string {
  return makeBuildAt(join(root, name), id, timestamp, payload);
}

describe('deploy', () => {
  it('publishes a build into a target it creates, and nothing else', async () => {
    const dist = makeBuild('dist', 'b1', 1000);
    write(join(dist, 'stray.txt'), 'not part of the build');
    const target = join(root, 'site', 'content');

    const result = await deploy({ source: dist, target });

    expect(result.buildId).toBe('b1');
    const built = published(dist).filter((file) => file !== 'stray.txt');
    // The build at the root, whole again in its own folder, and the history of builds made current.
    expect(listFiles(target)).toEqual(
      [...built, ...built.map((file) => `builds/b1/${file}`), 'builds/history.json'].sort(),
    );
    expect(JSON.parse(read(join(target, 'builds/history.json')))).toEqual({ ids: ['b1'] });
    for (const file of built) {
      expect(read(join(target, file))).toBe(read(join(dist, file)));
      expect(read(join(target, 'builds/b1', file))).toBe(read(join(dist, file)));
    }
    expect(result.replaced).toEqual([]);
    expect(result.added).toHaveLength(listFiles(target).length - 1);
  });

  it('keeps the previous build’s files and replaces the entry files, payloads and latest.json', async () => {
    const target = join(root, 'target');
    await deploy({ source: makeBuild('one', 'b1', 1000), target });
    const second = makeBuild('two', 'b2', 2000, 'new text');

    const result = await deploy({ source: second, target });

    const files = listFiles(target);
    // The old build's hashed files and meta file are still served…
    expect(files).toEqual(
      expect.arrayContaining(['__federation_expose_AboutPage.b1.js', '190.b1.js', 'main.b1.js', 'builds/meta/b1.json']),
    );
    // …beside the new build's.
    expect(files).toEqual(
      expect.arrayContaining(['__federation_expose_AboutPage.b2.js', '190.b2.js', 'main.b2.js', 'builds/meta/b2.json']),
    );
    expect(read(join(target, 'remoteEntry.js'))).toContain('b2');
    expect(JSON.parse(read(join(target, 'mf-manifest.json')))).toEqual({
      id: 'b2',
      chunk: '__federation_expose_AboutPage.b2.js',
    });
    expect(JSON.parse(read(join(target, 'builds/latest.json')))).toEqual({ id: 'b2', timestamp: 2000, previous: 'b1' });
    expect(read(join(target, 'payload/about.json'))).toContain('new text');
    expect(result.unchanged).toEqual(['470.stable.js']);
    expect(result.replaced.sort()).toEqual(
      ['builds/latest.json', 'mf-manifest.json', 'mf-stats.json', 'payload/about.json', 'remoteEntry.js'].sort(),
    );
    // No temporary file is left behind.
    expect(files.filter((file) => file.includes('deploy-tmp'))).toEqual([]);
  });

  it('writes the new files first, then remoteEntry.js and mf-manifest.json, and latest.json last', async () => {
    const target = join(root, 'target');
    await deploy({ source: makeBuild('one', 'b1', 1000), target });
    const second = makeBuild('two', 'b2', 2000);
    const order: string[] = [];
    const newChunks = ['__federation_expose_AboutPage.b2.js', '190.b2.js', 'main.b2.js', 'builds/meta/b2.json'];
    const seenWhenSwapped = new Map<string, boolean>();

    await deploy({
      source: second,
      target,
      onFile: (file, action: FileAction) => {
        if (action === 'unchanged') return;
        order.push(file);
        if (['remoteEntry.js', 'mf-manifest.json', 'builds/latest.json'].includes(file)) {
          // When a file that points at the new chunks appears, every one of them is there.
          seenWhenSwapped.set(
            file,
            newChunks.every((chunk) => existsSync(join(target, chunk))),
          );
        }
        if (file !== 'builds/latest.json') {
          // Until the very end, a version check still sees the previous build.
          expect(JSON.parse(read(join(target, 'builds/latest.json'))).id).toBe('b1');
        }
      },
    });

    expect(order.at(-1)).toBe('builds/latest.json');
    const position = (file: string) => order.indexOf(file);
    for (const chunk of newChunks) {
      expect(position(chunk)).toBeGreaterThanOrEqual(0);
      expect(position(chunk)).toBeLessThan(position('remoteEntry.js'));
      expect(position(chunk)).toBeLessThan(position('mf-manifest.json'));
    }
    expect(position('payload/about.json')).toBeLessThan(position('remoteEntry.js'));
    expect(order.slice(-4)).toEqual(['remoteEntry.js', 'mf-stats.json', 'mf-manifest.json', 'builds/latest.json']);
    expect([...seenWhenSwapped.values()]).toEqual([true, true, true]);
  });

  it('swaps a changed file by renaming a new one over it, never by rewriting it in place', async () => {
    const target = join(root, 'target');
    await deploy({ source: makeBuild('one', 'b1', 1000), target });
    const inodeBefore = statSync(join(target, 'mf-manifest.json')).ino;

    await deploy({ source: makeBuild('two', 'b2', 2000), target });

    // A reader holding the old file keeps reading the old file: a new inode took its name.
    expect(statSync(join(target, 'mf-manifest.json')).ino).not.toBe(inodeBefore);
    expect(read(join(target, 'mf-manifest.json'))).toContain('b2');
  });

  it('deploying the same build again changes nothing', async () => {
    const target = join(root, 'target');
    const dist = makeBuild('one', 'b1', 1000);
    await deploy({ source: dist, target });

    const again = await deploy({ source: dist, target });

    expect(again.added).toEqual([]);
    expect(again.replaced).toEqual([]);
    expect(again.unchanged).toHaveLength(2 * published(dist).length);
  });

  it('refuses a folder that is not a build, naming what is missing', async () => {
    const empty = join(root, 'dist');
    mkdirSync(empty);

    await expect(deploy({ source: empty, target: join(root, 'target') })).rejects.toThrow(DeployError);
    await expect(deploy({ source: empty, target: join(root, 'target') })).rejects.toThrow(
      /builds\/latest\.json is missing/,
    );
    expect(existsSync(join(root, 'target'))).toBe(false);
  });

  it('refuses an incomplete build and leaves the target untouched', async () => {
    const target = join(root, 'target');
    await deploy({ source: makeBuild('one', 'b1', 1000), target });
    const broken = makeBuild('two', 'b2', 2000);
    rmSync(join(broken, '190.b2.js'));
    const before = listFiles(target);

    await expect(deploy({ source: broken, target })).rejects.toThrow(/incomplete build; missing: 190\.b2\.js/);
    expect(listFiles(target)).toEqual(before);
    expect(JSON.parse(read(join(target, 'builds/latest.json'))).id).toBe('b1');
  });

  it('with keepBuilds, removes only the files of builds older than the newest ones kept', async () => {
    const target = join(root, 'target');
    await deploy({ source: makeBuild('one', 'b1', 1000), target });
    await deploy({ source: makeBuild('two', 'b2', 2000), target });

    const result = await deploy({ source: makeBuild('three', 'b3', 3000), target, keepBuilds: 2 });

    const files = listFiles(target);
    // The oldest build's own files and its whole copy go; its meta file stays, the record that
    // it was deployed here.
    expect(result.removed.sort()).toEqual(
      [
        '190.b1.js',
        '__federation_expose_AboutPage.b1.js',
        'main.b1.js',
        ...published(join(root, 'one')).map((file) => `builds/b1/${file}`),
      ].sort(),
    );
    expect(files.filter((file) => file.startsWith('builds/b1/'))).toEqual([]);
    expect(existsSync(join(target, 'builds/b1'))).toBe(false);
    expect(files).toContain('builds/meta/b1.json');
    expect(files).toEqual(
      expect.arrayContaining(['190.b2.js', '__federation_expose_AboutPage.b2.js', 'builds/meta/b2.json']),
    );
    expect(files).toEqual(expect.arrayContaining(['builds/b2/remoteEntry.js', 'builds/b3/remoteEntry.js']));
    expect(files).toEqual(
      expect.arrayContaining(['190.b3.js', '470.stable.js', 'remoteEntry.js', 'builds/latest.json']),
    );
  });

  it('always keeps the previous build, even when asked to keep one', async () => {
    const target = join(root, 'target');
    await deploy({ source: makeBuild('one', 'b1', 1000), target });

    const result = await deploy({ source: makeBuild('two', 'b2', 2000), target, keepBuilds: 1 });

    expect(result.removed).toEqual([]);
    expect(existsSync(join(target, '__federation_expose_AboutPage.b1.js'))).toBe(true);
  });
});

describe('builds/history.json', () => {
  const history = (target: string) => (JSON.parse(read(join(target, 'builds/history.json'))) as { ids: string[] }).ids;

  it('names the builds made current, newest first, written after latest.json', async () => {
    const target = join(root, 'target');
    await deploy({ source: makeBuild('one', 'b1', 1000), target });
    const historyWhenLatestSwapped: string[][] = [];

    await deploy({
      source: makeBuild('two', 'b2', 2000),
      target,
      onFile: (file) => {
        if (file === 'builds/latest.json') historyWhenLatestSwapped.push(history(target));
      },
    });

    // While latest.json already named b2, the history still named b1 only: it comes after.
    expect(historyWhenLatestSwapped).toEqual([['b1']]);
    expect(history(target)).toEqual(['b2', 'b1']);
    expect(listFiles(target).filter((file) => file.includes('deploy-tmp'))).toEqual([]);
  });

  it(`keeps the newest ${HISTORY_LENGTH}, and a build deployed again moves to the front`, async () => {
    const target = join(root, 'target');
    for (let n = 1; n <= HISTORY_LENGTH + 2; n += 1)
      await deploy({ source: makeBuild(`dist-${n}`, `b${n}`, n * 1000), target });
    await deploy({ source: join(root, 'dist-5'), target });

    const ids = history(target);
    expect(ids).toHaveLength(HISTORY_LENGTH);
    expect(ids.slice(0, 3)).toEqual(['b5', `b${HISTORY_LENGTH + 2}`, `b${HISTORY_LENGTH + 1}`]);
    expect(ids).not.toContain('b1');
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('starts from the deployed builds’ meta files where deploys wrote none before, or it is unreadable', async () => {
    const target = join(root, 'target');
    await deploy({ source: makeBuild('one', 'b1', 1000), target });
    await deploy({ source: makeBuild('two', 'b2', 2000), target });
    rmSync(join(target, 'builds/history.json'));
    await deploy({ source: makeBuild('three', 'b3', 3000), target });
    expect(history(target)).toEqual(['b3', 'b2', 'b1']);

    write(join(target, 'builds/history.json'), 'not json');
    await deploy({ source: makeBuild('four', 'b4', 4000), target });
    expect(history(target)).toEqual(['b4', 'b3', 'b2', 'b1']);
  });

  it('never publishes the standalone development shell, which talks to whatever API its address names', async () => {
    const dist = makeBuild('dist', 'b1', 1000);
    const target = join(root, 'target');

    const result = await deploy({ source: dist, target });

    // The build keeps it for local work; neither the origin's root nor the build's own copy serves it.
    expect(existsSync(join(dist, 'index.html'))).toBe(true);
    expect(existsSync(join(target, 'index.html'))).toBe(false);
    expect(existsSync(join(target, 'builds/b1/index.html'))).toBe(false);
    expect([...result.added, ...result.replaced]).not.toContain('index.html');
    // The rest of the build is there, and a rollback to it later is offered.
    expect(read(join(target, 'remoteEntry.js'))).toBe(read(join(dist, 'remoteEntry.js')));
    expect((await listBuilds(target)).builds.map((build) => [build.id, build.problem])).toEqual([['b1', undefined]]);
  });

  it('removes a development shell an earlier deploy published, and a rollback never puts one back', async () => {
    const target = join(root, 'target');
    await deploy({ source: makeBuild('one', 'b1', 1000), target });
    // What a deploy made before the shell was left out: at the root and in the build's copy.
    write(join(target, 'index.html'), '<script src="/main.b1.js"></script>');
    write(join(target, 'builds/b1/index.html'), '<script src="/main.b1.js"></script>');
    const removed: string[] = [];

    const result = await deploy({
      source: makeBuild('two', 'b2', 2000),
      target,
      onFile: (file, action) => action === 'removed' && removed.push(file),
    });
    expect(result.removed).toEqual(['index.html', 'builds/b1/index.html']);
    expect(removed).toEqual(['index.html', 'builds/b1/index.html']);
    expect(existsSync(join(target, 'index.html'))).toBe(false);
    expect(existsSync(join(target, 'builds/b1/index.html'))).toBe(false);

    await rollback({ target, buildId: 'b1' });
    expect(JSON.parse(read(join(target, 'builds/latest.json'))).id).toBe('b1');
    expect(existsSync(join(target, 'index.html'))).toBe(false);
  });

  it('is no build id: a build cannot be called history.json', async () => {
    const dist = makeBuild('one', 'b1', 1000);
    write(join(dist, 'builds', 'latest.json'), JSON.stringify({ id: 'history.json', timestamp: 1000 }));
    await expect(deploy({ source: dist, target: join(root, 'target') })).rejects.toThrow(/cannot name its folder/);
  });
});

describe('each build kept whole in builds/{id}/', () => {
  it('holds the build byte for byte, its latest.json naming it, whichever build is current', async () => {
    const target = join(root, 'target');
    const one = makeBuild('one', 'b1', 1000, 'first text');
    await deploy({ source: one, target });
    await deploy({ source: makeBuild('two', 'b2', 2000, 'second text'), target });

    // A host pinned to builds/b1/ gets build 1's entry (the very bytes that were current),
    // its manifest, its payload, and a latest.json that will always say b1.
    expect(listFiles(join(target, 'builds/b1'))).toEqual(published(one));
    for (const file of published(one)) expect(read(join(target, 'builds/b1', file))).toBe(read(join(one, file)));
    expect(JSON.parse(read(join(target, 'builds/b1/builds/latest.json')))).toEqual({ id: 'b1', timestamp: 1000 });
    expect(read(join(target, 'builds/b1/payload/about.json'))).toContain('first text');
    expect(read(join(target, 'remoteEntry.js'))).toBe(read(join(target, 'builds/b2/remoteEntry.js')));
    expect(JSON.parse(read(join(target, 'builds/latest.json'))).id).toBe('b2');
  });

  it('is written before any file at the root, its own latest.json last', async () => {
    const target = join(root, 'target');
    await deploy({ source: makeBuild('one', 'b1', 1000), target });
    const order: string[] = [];

    await deploy({
      source: makeBuild('two', 'b2', 2000),
      target,
      onFile: (file, action) => {
        if (action !== 'unchanged') order.push(file);
      },
    });

    const own = order.filter((file) => file.startsWith('builds/b2/'));
    expect(order.slice(0, own.length)).toEqual(own);
    expect(own.at(-1)).toBe('builds/b2/builds/latest.json');
    expect(own.slice(-4, -1)).toEqual(
      ['remoteEntry.js', 'mf-stats.json', 'mf-manifest.json'].map((file) => `builds/b2/${file}`),
    );
  });

  it.each(['meta', 'latest.json', '../b1', 'a/b', '.hidden'])(
    'refuses a build whose id %j cannot name its folder, and writes nothing',
    async (id) => {
      const dist = makeBuild('one', 'b1', 1000);
      write(join(dist, 'builds', 'latest.json'), JSON.stringify({ id, timestamp: 1000 }));
      const target = join(root, 'target');

      await expect(deploy({ source: dist, target })).rejects.toThrow(/cannot name its folder/);
      expect(existsSync(target)).toBe(false);
    },
  );
});

describe('keepBuilds and rollbacks', () => {
  it('after a rollback, keeps the build pages may still run and the one a rollback would go back to', async () => {
    const target = join(root, 'target');
    await deploy({ source: makeBuild('one', 'b1', 1000), target });
    await deploy({ source: makeBuild('two', 'b2', 2000), target });
    await rollback({ target });
    expect(JSON.parse(read(join(target, 'builds/latest.json'))).id).toBe('b1');

    // b3 replaces b1 (visitors run it) and was built after b2 (a plain rollback's target).
    const result = await deploy({ source: makeBuild('three', 'b3', 3000), target, keepBuilds: 2 });

    expect(result.removed).toEqual([]);
    for (const id of ['b1', 'b2', 'b3']) {
      expect(existsSync(join(target, `__federation_expose_AboutPage.${id}.js`))).toBe(true);
      expect(existsSync(join(target, `builds/${id}/builds/latest.json`))).toBe(true);
    }

    // The next deploy replaces b3 and goes back to b3: b1 and b2 go.
    const next = await deploy({ source: makeBuild('four', 'b4', 4000), target, keepBuilds: 2 });
    expect(next.removed).toEqual(expect.arrayContaining(['190.b1.js', '190.b2.js', 'builds/b2/remoteEntry.js']));
    expect(listFiles(join(target, 'builds')).filter((file) => !file.startsWith('meta/'))).toEqual(
      expect.arrayContaining(['b3/remoteEntry.js', 'b4/remoteEntry.js', 'latest.json']),
    );
    expect(existsSync(join(target, 'builds/b1'))).toBe(false);
    expect(existsSync(join(target, 'builds/b2'))).toBe(false);
  });

  it('counts the builds that can still be made current: one without its copy is pruned first', async () => {
    const target = join(root, 'target');
    for (const [name, id, timestamp] of [
      ['one', 'b1', 1000],
      ['two', 'b2', 2000],
      ['three', 'b3', 3000],
    ] as const)
      await deploy({ source: makeBuild(name, id, timestamp), target });
    // b2's copy is gone (removed by hand, or deployed before deploys kept copies).
    rmSync(join(target, 'builds/b2'), { recursive: true });

    await deploy({ source: makeBuild('four', 'b4', 4000), target, keepBuilds: 3 });

    // Kept: b4, b3 (replaced, and a plain rollback's target), and b1, the newest other that can
    // still be made current. b2's chunks go.
    expect(existsSync(join(target, '190.b2.js'))).toBe(false);
    for (const id of ['b1', 'b3', 'b4']) expect(existsSync(join(target, `190.${id}.js`))).toBe(true);
    expect(existsSync(join(target, 'builds/b1/remoteEntry.js'))).toBe(true);
  });
});

describe('deployCommand', () => {
  function io(packageDir: string): CliIo & { outLines: string[]; errLines: string[] } {
    const outLines: string[] = [];
    const errLines: string[] = [];
    return {
      cwd: root,
      packageDir,
      out: (line) => outLines.push(line),
      err: (line) => errLines.push(line),
      outLines,
      errLines,
    };
  }

  it('publishes the package’s dist/ into a target relative to where it was run', async () => {
    const pkg = join(root, 'remote-content');
    mkdirSync(pkg);
    makeBuild(join('remote-content', 'dist'), 'b1', 1000);
    const cli = io(pkg);

    expect(await deployCommand.main(['deployed/content'], cli)).toBe(0);

    expect(JSON.parse(read(join(root, 'deployed/content/builds/latest.json'))).id).toBe('b1');
    expect(cli.outLines.join('\n')).toMatch(/build b1 published to .*deployed\/content/);
    expect(cli.outLines.join('\n')).toContain('pin a host to it with …/builds/b1/mf-manifest.json');
    expect(cli.errLines).toEqual([]);
  });

  it('takes another build folder with --from', async () => {
    makeBuild('other-dist', 'b7', 7000);
    const cli = io(join(root, 'nowhere'));

    expect(await deployCommand.main(['--from', 'other-dist', join(root, 'target')], cli)).toBe(0);
    expect(JSON.parse(read(join(root, 'target/builds/latest.json'))).id).toBe('b7');
  });

  it.each([
    [['--keep-builds=3', '--from=b3', 'target']],
    [['--keep-builds', '3', '--from', 'b3', 'target']],
    [['target', '--from=b3', '--keep-builds', '3']],
  ])('takes an option’s value after = or as the next argument: %j', async (argv) => {
    const target = join(root, 'target');
    for (const [name, id, timestamp] of [
      ['b1', 'b1', 1000],
      ['b2', 'b2', 2000],
    ] as const)
      await deploy({ source: makeBuild(name, id, timestamp), target });
    makeBuild('b3', 'b3', 3000);
    const cli = io(join(root, 'nowhere'));

    expect(await deployCommand.main(argv, cli)).toBe(0);

    expect(cli.errLines).toEqual([]);
    expect(JSON.parse(read(join(target, 'builds/latest.json'))).id).toBe('b3');
    // Three builds kept: nothing removed yet.
    expect(cli.outLines.join('\n')).toContain('; 0 files of older builds removed');
    expect(existsSync(join(target, '190.b1.js'))).toBe(true);
  });

  it('prints the usage with --help and -h', async () => {
    for (const flag of ['--help', '-h']) {
      const cli = io(root);
      expect(await deployCommand.main([flag], cli)).toBe(0);
      expect(cli.outLines.join('\n')).toMatch(/^Usage: npm run deploy/);
    }
  });

  it('exits 1 with the usage when the target is missing', async () => {
    const cli = io(root);

    expect(await deployCommand.main([], cli)).toBe(1);
    expect(cli.errLines.join('\n')).toMatch(/the target folder is missing[\s\S]*Usage: npm run deploy/);
  });

  it('exits 1 with a clear message when the package is not built', async () => {
    const pkg = join(root, 'remote-content');
    mkdirSync(pkg);
    const cli = io(pkg);

    expect(await deployCommand.main([join(root, 'target')], cli)).toBe(1);
    expect(cli.errLines.join('\n')).toMatch(
      /dist is not a build: builds\/latest\.json is missing \(run the package's build first\)/,
    );
    expect(existsSync(join(root, 'target'))).toBe(false);
  });

  it.each([
    [['--keep-builds', '1', 'target'], /at least 2/],
    [['--keep-builds'], /needs a value/],
    [['--force', 'target'], /unknown option --force/],
    [['a', 'b'], /exactly one target folder/],
    [['--keep-builds=1', 'target'], /at least 2, got "1"/],
    [['--keep-builds=two', 'target'], /whole number of at least 2, got "two"/],
    [['--keep-builds', '--from', 'dist', 'target'], /--keep-builds needs a value/],
    [['--from=', 'target'], /--from needs a value/],
    [['--force=yes', 'target'], /unknown option --force\n\nUsage: npm run deploy/],
    [['--build', 'b1', '--from', 'dist', 'target'], /--build takes a build the folder holds: not with --from/],
    [['--build', 'b1', '--stage', 'target'], /--build takes a build the folder holds: not with --stage/],
    [['--build=', 'target'], /--build needs a value/],
    [['--stage', '--keep-builds', '2', 'target'], /--stage removes nothing: not with --keep-builds/],
  ])('exits 1 on bad arguments %j', async (argv, message) => {
    const cli = io(root);
    expect(await deployCommand.main(argv, cli)).toBe(1);
    expect(cli.errLines.join('\n')).toMatch(message);
  });
});
