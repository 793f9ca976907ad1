/** @jest-environment node */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deploy, type FileAction } from './deploy';
import { deployCommand } from './deploy-command';
import { HOST_LAYOUT } from './deploy-layout';
import { rollbackCommand } from './rollback';
import { makeHostBuild } from './testing/fake-host-build';
import { holdDeploymentLock } from './testing/held-lock';
import { listFiles, read } from './testing/fake-remote-build';

let root: string;
let lines: string[];

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'host-deploy-test-'));
  lines = [];
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** The command lines as `npm run deploy -w host` / `npm run rollback -w host` run them. */
const io = () => ({
  cwd: root,
  packageDir: join(root, 'host'),
  out: (line: string) => lines.push(line),
  err: (line: string) => lines.push(line),
});
const deployHost = (...argv: string[]) => deployCommand.main(argv, io());
const rollbackHost = (...argv: string[]) => rollbackCommand.main(argv, io());
const json = (path: string): unknown => JSON.parse(read(path));

describe('npm run deploy -w host', () => {
  it('publishes the host’s dist/ with its template, a whole copy under _app/builds/ and its deployment', async () => {
    makeHostBuild(join(root, 'host', 'dist'), 'h1', 1000, 'code-a');

    expect(await deployHost('site')).toBe(0);

    const site = join(root, 'site');
    const built = ['264.h1.js', 'crisp.stable.js', 'index.html', 'main.h1.js', 'mf-manifest.json', 'mf-stats.json'];
    expect(listFiles(site)).toEqual(
      [
        ...built,
        '_app/builds/meta/h1.json',
        ...[...built, '_app/builds/meta/h1.json', '_app/builds/latest.json'].map((file) => `_app/builds/h1/${file}`),
        '_app/builds/latest.json',
        '_app/builds/history.json',
      ].sort(),
    );
    // The template the host's server renders pages from is published, not left out as a remote's shell is.
    expect(read(join(site, 'index.html'))).toContain('/main.h1.js');
    // The deployment names the build and the code its server must be of.
    expect(json(join(site, '_app/builds/latest.json'))).toEqual({ id: 'h1', timestamp: 1000, codeVersion: 'code-a' });
    expect(existsSync(join(site, 'builds'))).toBe(false);
    expect(lines.join('\n')).toContain(`build h1 published to ${site}`);
  });

  it('swaps the hashed files first, then the manifests and the template, then _app/builds/latest.json', async () => {
    const target = join(root, 'site');
    await deploy({ source: makeHostBuild(join(root, 'one'), 'h1', 1000), target, layout: HOST_LAYOUT });
    const order: string[] = [];
    const onFile = (path: string, action: FileAction) => {
      if (!path.startsWith('_app/builds/h2/') && action !== 'unchanged') order.push(path);
    };

    await deploy({
      source: makeHostBuild(join(root, 'two'), 'h2', 2000, 'code-b'),
      target,
      layout: HOST_LAYOUT,
      onFile,
    });

    expect(order.slice(-4)).toEqual(['mf-stats.json', 'mf-manifest.json', 'index.html', '_app/builds/latest.json']);
    expect(order.indexOf('main.h2.js')).toBeLessThan(order.indexOf('mf-stats.json'));
    expect(json(join(target, '_app/builds/latest.json'))).toEqual({
      id: 'h2',
      timestamp: 2000,
      previous: 'h1',
      codeVersion: 'code-b',
    });
    // The previous build's files stay for the pages still running it.
    expect(existsSync(join(target, 'main.h1.js'))).toBe(true);
  });

  it('is refused while another command holds the folder’s lock', async () => {
    const target = join(root, 'site');
    await deploy({ source: makeHostBuild(join(root, 'one'), 'h1', 1000), target, layout: HOST_LAYOUT });
    const release = await holdDeploymentLock(target, 'npm run rollback');
    try {
      makeHostBuild(join(root, 'host', 'dist'), 'h2', 2000);
      expect(await deployHost('site')).toBe(1);
      expect(lines.join('\n')).toMatch(/is being changed by another run: npm run rollback/);
      expect(json(join(target, '_app/builds/latest.json'))).toMatchObject({ id: 'h1' });
    } finally {
      await release();
    }
  });

  it('has no --revoke: the host runs no canary', async () => {
    makeHostBuild(join(root, 'host', 'dist'), 'h1', 1000);
    expect(await deployHost('site')).toBe(0);
    expect(await deployHost('site', '--revoke', 'h1')).toBe(1);
    expect(lines.join('\n')).toContain('--revoke is for a remote');
  });
});

describe('npm run rollback -w host', () => {
  it('makes the previous build current again, its template and deployment with it', async () => {
    const target = join(root, 'site');
    await deploy({ source: makeHostBuild(join(root, 'one'), 'h1', 1000, 'code-a'), target, layout: HOST_LAYOUT });
    await deploy({ source: makeHostBuild(join(root, 'two'), 'h2', 2000, 'code-b'), target, layout: HOST_LAYOUT });

    expect(await rollbackHost('site')).toBe(0);

    expect(read(join(target, 'index.html'))).toContain('/main.h1.js');
    expect(json(join(target, '_app/builds/latest.json'))).toEqual({ id: 'h1', timestamp: 1000, codeVersion: 'code-a' });
    expect(json(join(target, '_app/builds/history.json'))).toEqual({ ids: ['h1', 'h2'] });
    expect(lines.join('\n')).toMatch(/rollback: build h1 .*is current again/);

    lines = [];
    expect(await rollbackHost('site', '--list')).toBe(0);
    expect(lines.join('\n')).toMatch(/\* h1 .*current/);
    expect(lines.join('\n')).toMatch(/ {2}h2 /);
  });

  it('names a build the folder does not know, in the host’s folder', async () => {
    await deploy({
      source: makeHostBuild(join(root, 'one'), 'h1', 1000),
      target: join(root, 'site'),
      layout: HOST_LAYOUT,
    });
    expect(await rollbackHost('site', 'nope')).toBe(1);
    expect(lines.join('\n')).toContain('there is no _app/builds/meta/nope.json');
  });
});
