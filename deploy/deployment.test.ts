/**
 * @jest-environment node
 *
 * Staging, the deployment's state, pruning's limits and the lock, against real folders.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { deploy, type CliIo } from './deploy';
import { deployCommand, stagedNextLines } from './deploy-command';
import { DEPLOY_LOCK_FILE, readDeployment, writeDeployment } from './deployment';
import { rollback } from './rollback';
import { deploySandbox } from './testing/deploy-sandbox';
import { listFiles, read, write } from './testing/fake-remote-build';

const sandbox = deploySandbox('deployment-test-', 'gifts');
const { build, latest, history, snapshot } = sandbox;

function cliIo(packageDir: string): CliIo & { output: () => string; errors: () => string } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    cwd: sandbox.root,
    packageDir,
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    output: () => out.join('\n'),
    errors: () => err.join('\n'),
  };
}

describe('deploy --stage', () => {
  it('writes only the build’s own copy and its meta file: latest.json, the root and the history are untouched', async () => {
    await deploy({ source: build(1), target: sandbox.target });
    const before = snapshot();

    const result = await deploy({ source: build(2), target: sandbox.target, stage: true });

    expect(result).toMatchObject({ buildId: 'b2', staged: true, replaced: [], removed: [] });
    const after = snapshot();
    const added = Object.keys(after).filter((file) => !(file in before));
    expect(added.sort()).toEqual(
      [
        ...listFiles(join(sandbox.root, 'dist-2'))
          .filter((file) => file !== 'index.html')
          .map((file) => `builds/b2/${file}`),
      ]
        .concat('builds/meta/b2.json')
        .sort(),
    );
    for (const file of Object.keys(before)) expect(after[file]).toBe(before[file]);
    expect(latest()).toEqual({ id: 'b1', timestamp: 1000 });
    expect(history()).toEqual(['b1']);
  });

  it('prints how to pin the staged build and the next commands', async () => {
    await deploy({ source: build(1), target: sandbox.target });
    const pkg = join(sandbox.root, 'remote-gifts');
    mkdirSync(pkg);
    build(2);
    const io = cliIo(pkg);

    expect(await deployCommand.main(['srv/gifts', '--stage', '--from', 'dist-2'], io)).toBe(0);

    expect(io.errors()).toBe('');
    expect(io.output()).toContain(`deploy: build b2 staged in ${sandbox.target}: kept whole in builds/b2/`);
    expect(io.output()).toContain('nothing visitors get has changed');
    expect(io.output()).toContain('pin a host to it with …/builds/b2/mf-manifest.json');
    // The gate and the release as they work for a remote whose route has parameters: with --path.
    expect(io.output()).toContain(
      `PREVIEW_KEY=… npm run gate -w remote-gifts -- ${sandbox.target} b2 --host <URL> --path /gifts/<a real giftId>`,
    );
    expect(io.output()).toContain('npm run staging -- sample');
    expect(io.output()).toContain(
      `PREVIEW_KEY=… npm run release -w remote-gifts -- ${sandbox.target} --build b2 --host <URL> --prometheus <URL> --path /gifts/<a real giftId>`,
    );
    // The release run, which judges the canary, comes before a bare canary, which nobody judges.
    expect(io.output().indexOf('npm run release')).toBeLessThan(io.output().indexOf('npm run canary'));
    expect(io.output()).toMatch(
      new RegExp(`judged by nobody: +npm run canary -w remote-gifts -- ${sandbox.target} start b2 --percent 10`),
    );
    expect(io.output()).toContain(`npm run deploy -w remote-gifts -- ${sandbox.target} --build b2`);
  });

  it('gives no --path for a remote whose routes have none', () => {
    const text = stagedNextLines('remote-content', '/srv/content', 'b2').join('\n');
    expect(text).toContain('npm run gate -w remote-content -- /srv/content b2 --host <URL>\n');
    expect(text).not.toContain('--path');
    expect(text).not.toContain('staging');
  });

  it('a staged build is made current later with --build, the build it replaces becoming previous', async () => {
    await deploy({ source: build(1), target: sandbox.target });
    await deploy({ source: build(2), target: sandbox.target, stage: true });
    const io = cliIo(sandbox.root);

    expect(await deployCommand.main([sandbox.target, '--build', 'b2'], io)).toBe(0);

    expect(io.output()).toContain(`deploy: build b2 published to ${sandbox.target}`);
    expect(latest()).toEqual({ id: 'b2', timestamp: 2000, previous: 'b1' });
    expect(read(join(sandbox.target, 'remoteEntry.js'))).toBe(read(join(sandbox.root, 'dist-2', 'remoteEntry.js')));
    expect(history()).toEqual(['b2', 'b1']);
  });

  it('--build refuses an unknown build and one whose copy is not whole, changing nothing', async () => {
    await deploy({ source: build(1), target: sandbox.target });
    await deploy({ source: build(2), target: sandbox.target, stage: true });
    rmSync(join(sandbox.target, 'builds/b2/mf-manifest.json'));
    const before = snapshot();

    await expect(deploy({ target: sandbox.target, buildId: 'b7' })).rejects.toThrow(
      `build b7 was never deployed or staged in ${sandbox.target} (there is no builds/meta/b7.json)`,
    );
    await expect(deploy({ target: sandbox.target, buildId: 'b2' })).rejects.toThrow(
      /build b2 cannot be made current: its copy .* is not whole \(.*missing: mf-manifest\.json/,
    );
    expect(snapshot()).toEqual(before);
  });
});

describe('the deployment state', () => {
  it('a deploy names the stable build it replaces as previous; the same build again keeps it', async () => {
    await deploy({ source: build(1), target: sandbox.target });
    expect(latest()).toEqual({ id: 'b1', timestamp: 1000 });
    await deploy({ source: build(2), target: sandbox.target });
    expect(latest()).toEqual({ id: 'b2', timestamp: 2000, previous: 'b1' });
    await deploy({ source: join(sandbox.root, 'dist-2'), target: sandbox.target });
    expect(latest()).toEqual({ id: 'b2', timestamp: 2000, previous: 'b1' });
  });

  it('a rollback names as previous the build a further plain rollback restores, when its copy is whole', async () => {
    for (const n of [1, 2, 3]) await deploy({ source: build(n), target: sandbox.target });
    expect((await rollback({ target: sandbox.target })).nextBack).toBe('b1');
    expect(latest()).toEqual({ id: 'b2', timestamp: 2000, previous: 'b1' });
    // b1's copy gone: no build to fall back to.
    await rollback({ target: sandbox.target, buildId: 'b3' });
    rmSync(join(sandbox.target, 'builds/b1'), { recursive: true });
    await rollback({ target: sandbox.target });
    expect(latest()).toEqual({ id: 'b2', timestamp: 2000 });
  });

  it('is written whole in one rename, keeping the fields a write does not change', async () => {
    await deploy({ source: build(1), target: sandbox.target });
    write(join(sandbox.target, 'builds/latest.json'), JSON.stringify({ ...latest(), region: 'eu' }));

    const { state, changed } = await writeDeployment(sandbox.target, {
      previous: 'b0',
      canary: { id: 'b2', percent: 5, since: 7 },
    });

    expect(changed).toBe(true);
    expect(state).toEqual({ id: 'b1', timestamp: 1000, previous: 'b0', canary: { id: 'b2', percent: 5, since: 7 } });
    expect(latest()).toEqual({ ...state, region: 'eu' });
    expect(await writeDeployment(sandbox.target, { canary: null })).toMatchObject({ changed: true });
    expect(latest()).toEqual({ id: 'b1', timestamp: 1000, previous: 'b0', region: 'eu' });
    expect(await writeDeployment(sandbox.target, {})).toMatchObject({ changed: false });
    expect(listFiles(join(sandbox.target, 'builds')).filter((file) => file.includes('deploy-tmp'))).toEqual([]);
    expect(await readDeployment(sandbox.target)).toEqual({ id: 'b1', timestamp: 1000, previous: 'b0' });
  });
});

describe('pruning', () => {
  it('never removes the stable build, previous, or a staged build newer than the stable one', async () => {
    for (const n of [1, 2, 3]) await deploy({ source: build(n), target: sandbox.target });
    await deploy({ source: build(9), target: sandbox.target, stage: true });

    const result = await deploy({ source: build(4), target: sandbox.target, keepBuilds: 2 });

    // b4 stable, b3 previous (and a plain rollback's target), b9 staged after it: kept. b1, b2 go.
    expect(result.removed).toEqual(expect.arrayContaining(['190.b1.js', '190.b2.js']));
    for (const id of ['b3', 'b4', 'b9'])
      expect(existsSync(join(sandbox.target, `builds/${id}/remoteEntry.js`))).toBe(true);
    expect(existsSync(join(sandbox.target, 'builds/b1'))).toBe(false);
  });

  it('refuses a meta file that lists a path outside the folder, before removing anything', async () => {
    for (const n of [1, 2, 3]) await deploy({ source: build(n), target: sandbox.target });
    const outside = join(sandbox.root, 'srv', 'precious.txt');
    writeFileSync(outside, 'not the deployment’s');
    const metaPath = join(sandbox.target, 'builds/meta/b1.json');
    const meta = JSON.parse(readFileSync(metaPath, 'utf8')) as { files: string[] };
    writeFileSync(metaPath, JSON.stringify({ ...meta, files: [...meta.files, '../precious.txt'] }));
    const before = snapshot();

    await expect(deploy({ source: build(4), target: sandbox.target, keepBuilds: 2 })).rejects.toThrow(
      'builds/meta/b1.json lists a file outside',
    );

    expect(read(outside)).toBe('not the deployment’s');
    expect(snapshot()).toEqual(before);
  });

  it('refuses to remove a file through a symbolic link that leads outside the folder', async () => {
    for (const n of [1, 2, 3]) await deploy({ source: build(n), target: sandbox.target });
    const elsewhere = join(sandbox.root, 'elsewhere');
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, 'about.json'), 'not the deployment’s');
    rmSync(join(sandbox.target, 'builds/b1/payload'), { recursive: true });
    symlinkSync(elsewhere, join(sandbox.target, 'builds/b1/payload'));

    await expect(deploy({ source: build(4), target: sandbox.target, keepBuilds: 2 })).rejects.toThrow('leads outside');
    expect(read(join(elsewhere, 'about.json'))).toBe('not the deployment’s');
  });
});

describe('the lock', () => {
  it('a run whose lock another run took over stops before its next write, leaving the deployment to that run', async () => {
    await deploy({ source: build(1), target: sandbox.target });
    const lockPath = join(sandbox.target, DEPLOY_LOCK_FILE);
    // What a run that took this one for dead writes: its own lock, over this run's.
    const takeOver = () => {
      if (!read(lockPath).includes('"token": "other"')) {
        const owner = JSON.parse(read(lockPath)) as Record<string, unknown>;
        writeFileSync(lockPath, JSON.stringify({ ...owner, pid: 1, token: 'other', purpose: 'rollback' }, null, 2));
      }
    };

    await expect(deploy({ source: build(2), target: sandbox.target, onFile: takeOver })).rejects.toThrow(
      /stopped before writing more into .*: the lock .* was taken over by process 1 on .* \(rollback\)/,
    );

    expect(latest()).toEqual({ id: 'b1', timestamp: 1000 });
    expect(history()).toEqual(['b1']);
    // Only the first file went in; the lock stays the other run's.
    expect(listFiles(join(sandbox.target, 'builds/b2'))).toHaveLength(1);
    expect(JSON.parse(read(lockPath))).toMatchObject({ token: 'other' });
  });

  it('is taken over from a run that died, whose leftover temporary files the next run removes', async () => {
    await deploy({ source: build(1), target: sandbox.target });
    // What a run killed half-way leaves: its lock, naming a process that is gone, and temporary files.
    const dead = spawn(process.execPath, ['-e', '0']);
    await new Promise((resolve) => dead.once('exit', resolve));
    const lockPath = join(sandbox.target, DEPLOY_LOCK_FILE);
    // The same boot and pid namespace as ours, so the pid is checked: it is gone.
    const owner = {
      pid: dead.pid,
      hostname: hostname(),
      bootId: readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(),
      pidNamespace: readlinkSync('/proc/self/ns/pid'),
      processStart: null,
      since: new Date().toISOString(),
      token: 'killed',
      purpose: 'deploy',
    };
    writeFileSync(lockPath, JSON.stringify(owner));
    write(join(sandbox.target, '.3f2a.deploy-tmp'), 'half a remoteEntry.js');
    write(join(sandbox.target, 'builds/b2/.9c1e.deploy-tmp'), 'half a chunk');

    await deploy({ source: build(2), target: sandbox.target });

    expect(latest()).toMatchObject({ id: 'b2' });
    expect(listFiles(sandbox.target).filter((file) => file.split('/').some((part) => part.startsWith('.')))).toEqual(
      [],
    );
    expect(existsSync(lockPath)).toBe(false);
  });
});
