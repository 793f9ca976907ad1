/**
 * @jest-environment node
 *
 * Revoking a build (`deploy --revoke`) against real folders: what the deployment's state becomes,
 * what every other command then refuses or skips, and what pruning removes.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canaryCommand, startCanary } from './canary';
import { deploy, type CliIo } from './deploy';
import { deployCommand } from './deploy-command';
import { revokeBuild } from './revoke';
import { listBuilds, rollback, rollbackCommand } from './rollback';
import { listFiles, makeBuild, read, write } from './testing/fake-remote-build';
import { holdDeploymentLock } from './testing/held-lock';

let root: string;
let target: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'revoke-test-'));
  target = join(root, 'srv', 'gifts');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Build bN in `{root}/dist-N`, built at N seconds. */
function build(n: number): string {
  return makeBuild(join(root, `dist-${n}`), `b${n}`, n * 1000, `text of build ${n}`);
}

const latest = () => JSON.parse(read(join(target, 'builds/latest.json'))) as Record<string, unknown>;

function snapshot(): Record<string, string> {
  return Object.fromEntries(listFiles(target).map((file) => [file, read(join(target, file))]));
}

function cliIo(): CliIo & { output: () => string; errors: () => string } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    cwd: root,
    packageDir: join(root, 'remote-gifts'),
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    output: () => out.join('\n'),
    errors: () => err.join('\n'),
  };
}

/** b1, b2, b3 deployed in turn: b3 stable, b2 previous. */
async function threeDeployed(): Promise<void> {
  for (const n of [1, 2, 3]) await deploy({ source: build(n), target });
}

describe('deploy --revoke', () => {
  it('aborts the running canary it revokes, in one write that keeps the rest of the state', async () => {
    await threeDeployed();
    await startCanary({ target, source: build(4), percent: 20 });
    write(join(target, 'builds/latest.json'), JSON.stringify({ ...latest(), note: 'kept' }));
    const io = cliIo();

    expect(await deployCommand.main(['srv/gifts', '--revoke', 'b4'], io)).toBe(0);

    expect(latest()).toEqual({ id: 'b3', timestamp: 3000, previous: 'b2', revoked: ['b4'], note: 'kept' });
    expect(io.output()).toContain(`deploy: build b4 is revoked in ${target}`);
    expect(io.output()).toContain('it ran as the canary for 20 % of visitors: aborted; its visitors get build b3');
    expect(existsSync(join(target, '.deploy.lock'))).toBe(false);
    const list = cliIo();
    expect(await rollbackCommand.main(['srv/gifts', '--list'], list)).toBe(0);
    expect(list.output()).toMatch(
      /b4 +built \S+ +revoked: never given to visitors or made current again; aborted canary \([^)]*at 20 %, by npm run deploy --revoke\): revoked while it ran as the canary/,
    );
    // Its copy stays for the pages still running it, until pruning.
    expect(existsSync(join(target, 'builds/b4/remoteEntry.js'))).toBe(true);
  });

  it('clears previous when it revokes it; the newest revocation comes first', async () => {
    await threeDeployed();
    await revokeBuild({ target, buildId: 'b1' });

    const result = await revokeBuild({ target, buildId: 'b2' });

    expect(result.clearedPrevious).toBe(true);
    expect(latest()).toEqual({ id: 'b3', timestamp: 3000, revoked: ['b2', 'b1'] });
    expect(await revokeBuild({ target, buildId: 'b2' })).toMatchObject({ already: true });
  });

  it('refuses the stable build, an unknown build and what is not a build id, changing nothing', async () => {
    await threeDeployed();
    const before = snapshot();
    const io = cliIo();

    expect(await deployCommand.main([target, '--revoke', 'b3'], io)).toBe(1);
    expect(io.errors()).toContain('build b3 is the stable build');
    expect(io.errors()).toContain('Deploy a fixed build');
    expect(io.errors()).toContain('roll back');
    await expect(revokeBuild({ target, buildId: 'b9' })).rejects.toThrow('build b9 was never deployed or staged');
    await expect(revokeBuild({ target, buildId: '../b1' })).rejects.toThrow('"../b1" is not a build id');
    expect(await deployCommand.main([target, '--revoke', 'b1', '--keep-builds', '2'], io)).toBe(1);
    expect(io.errors()).toContain('not with --keep-builds');
    expect(snapshot()).toEqual(before);
  });

  it('is refused while another run holds the deployment', async () => {
    await threeDeployed();
    const release = await holdDeploymentLock(target, 'canary promote');

    await expect(revokeBuild({ target, buildId: 'b1' })).rejects.toThrow(
      'is being changed by another run: canary promote',
    );
    await release();
    expect(latest().revoked).toBeUndefined();
  });
});

describe('a revoked build', () => {
  it('is refused by rollback, skipped by a plain rollback, and listed as revoked', async () => {
    await threeDeployed();
    await revokeBuild({ target, buildId: 'b2' });

    await expect(rollback({ target, buildId: 'b2' })).rejects.toThrow('build b2 is revoked');
    const io = cliIo();
    expect(await rollbackCommand.main([target, '--list'], io)).toBe(0);
    expect(io.output()).toMatch(/ b2 +built \S+ +revoked: never given to visitors or made current again/);

    const result = await rollback({ target });
    expect(result.buildId).toBe('b1');
    // b1's previous would be the build before it: none; b2 is never named again.
    expect(latest()).toMatchObject({ id: 'b1', revoked: ['b2'] });
    expect(latest().previous).toBeUndefined();
  });

  it('is never the previous a rollback names', async () => {
    await threeDeployed();
    await deploy({ source: build(4), target });
    await revokeBuild({ target, buildId: 'b2' });

    await rollback({ target, buildId: 'b3' });

    expect(latest()).toMatchObject({ id: 'b3', previous: 'b1' });
  });

  it('is refused by deploy --build and by canary start, by id or from a build folder, before anything is written', async () => {
    await threeDeployed();
    await deploy({ source: build(4), target, stage: true });
    await revokeBuild({ target, buildId: 'b4' });
    await revokeBuild({ target, buildId: 'b1' });
    rmSync(join(target, 'builds/b1'), { recursive: true });
    const before = snapshot();

    await expect(deploy({ target, buildId: 'b4' })).rejects.toThrow('build b4 is revoked');
    await expect(deploy({ source: build(4), target })).rejects.toThrow('build b4 is revoked');
    await expect(startCanary({ target, buildId: 'b4', percent: 10 })).rejects.toThrow('build b4 is revoked');
    // Its copy pruned: the build folder would stage it again.
    await expect(startCanary({ target, source: build(1), percent: 10 })).rejects.toThrow('build b1 is revoked');
    const io = cliIo();
    expect(await canaryCommand.main([target, 'start', '../b4', '--percent', '10'], io)).toBe(1);
    expect(io.errors()).toContain('"../b4" is not a build id');
    expect(snapshot()).toEqual(before);
  });

  it('has its copy and files removed by the next pruning, whatever its age', async () => {
    await threeDeployed();
    await deploy({ source: build(5), target, stage: true });
    await revokeBuild({ target, buildId: 'b2' });
    await revokeBuild({ target, buildId: 'b5' });

    // Keeping 4 would keep every build; b2 (before b3) and b5 (newer than the stable build) go.
    await deploy({ source: build(4), target, keepBuilds: 4 });

    for (const id of ['b2', 'b5']) {
      expect(existsSync(join(target, `builds/${id}`))).toBe(false);
      expect(existsSync(join(target, `190.${id}.js`))).toBe(false);
    }
    for (const id of ['b1', 'b3', 'b4']) expect(existsSync(join(target, `builds/${id}/remoteEntry.js`))).toBe(true);
    expect((await listBuilds(target)).builds.find((known) => known.id === 'b2')).toMatchObject({
      role: { kind: 'revoked' },
    });
  });
});
