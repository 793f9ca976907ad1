/** @jest-environment node */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inputsHash, partMarkers, writeStamp } from '../scripts/build-stamp';
import { main } from './cli';
import { ALLOW_STALE_DIST, checkDist } from './stale-dist';
import { makeBuild, read, write } from './testing/fake-remote-build';

const CLI = join(__dirname, 'cli.ts');
const TSX = require.resolve('tsx');

let root: string;
let pkg: string;

/** A remote's folder with sources and a dist/ built from them, its stamp written as `npm run build` does. */
function builtRemote(): void {
  write(join(pkg, 'src', 'page.tsx'), 'export const title = "Pick a box";\n');
  write(join(pkg, 'package.json'), '{ "name": "remote-gifts" }\n');
  write(join(root, 'shared', 'src', 'contract.ts'), 'export const version = 1;\n');
  makeBuild(join(pkg, 'dist'), 'b1', 1000);
  writeStamp(root, 'remote-gifts', inputsHash(root, 'remote-gifts'), ['dist/builds/latest.json']);
}

/**
 * `npm run <command> -w <package> -- <args>` as npm runs it: the CLI in the package's folder (the
 * gifts remote's unless told), typed in the root.
 */
async function deployCli(args: string[], command = 'deploy', packageDir = pkg) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await main(
    [command, ...args],
    { out: (line) => stdout.push(line), err: (line) => stderr.push(line) },
    {
      cwd: root,
      packageDir,
    },
  );
  return { code, stderr: stderr.join('\n'), stdout: stdout.join('\n') };
}

/** The same, in a process of its own as npm starts it: what it prints and its exit status. */
function deployProcess(args: string[], command: string) {
  const result = spawnSync(process.execPath, ['--import', TSX, CLI, command, ...args], {
    cwd: pkg,
    env: { ...process.env, INIT_CWD: root },
    encoding: 'utf8',
  });
  return { code: result.status, stderr: result.stderr, stdout: result.stdout };
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'stale-dist-test-'));
  pkg = join(root, 'remote-gifts');
  builtRemote();
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('checkDist', () => {
  it('lets a dist/ built from the sources as they are be published', () => {
    expect(checkDist(['srv/gifts'], pkg, 'deploy')).toEqual({ argv: ['srv/gifts'] });
  });

  it.each([
    ['a source of the remote', () => join(pkg, 'src', 'page.tsx')],
    ["the remote's package.json", () => join(pkg, 'package.json')],
    ['a shared source it builds from', () => join(root, 'shared', 'src', 'contract.ts')],
  ])('refuses a dist/ older than %s, saying how to build it and how to publish it anyway', (_what, file) => {
    write(file(), `${read(file())}// changed\n`);
    const { problem } = checkDist(['srv/gifts', '--stage'], pkg, 'deploy');
    expect(problem).toContain('deploy: remote-gifts/dist is not the build of its sources (sources changed');
    expect(problem).toContain('npm run build -w remote-gifts');
    expect(problem).toContain(ALLOW_STALE_DIST);
  });

  it('refuses a dist/ with no build stamp (built by another script than build)', () => {
    rmSync(join(pkg, 'node_modules'), { recursive: true });
    expect(checkDist(['srv/gifts'], pkg, 'release').problem).toMatch(/^release: .*no build stamp/);
  });

  it('publishes a stale dist/ with --allow-stale-dist, which the command itself never sees', () => {
    write(join(pkg, 'src', 'page.tsx'), 'export const title = "Choose";\n');
    expect(checkDist(['srv/gifts', ALLOW_STALE_DIST, '--keep-builds', '3'], pkg, 'deploy')).toEqual({
      argv: ['srv/gifts', '--keep-builds', '3'],
    });
  });

  it.each([
    [['srv/gifts', '--from', 'other']],
    [['srv/gifts', '--from=other']],
    [['srv/gifts', '--build', 'b1']],
    [['srv/gifts', '--revoke', 'b1']],
    [['--help']],
  ])('leaves alone a command line that publishes no dist/ of the package: %j', (argv) => {
    write(join(pkg, 'src', 'page.tsx'), 'export const title = "Choose";\n');
    expect(checkDist(argv, pkg, 'deploy')).toEqual({ argv });
  });
});

describe('npm run deploy', () => {
  it('refuses to publish a stale dist/, and publishes it with --allow-stale-dist', async () => {
    write(join(pkg, 'src', 'page.tsx'), 'export const title = "Choose";\n');

    const refused = await deployCli(['srv/gifts']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('remote-gifts/dist is not the build of its sources');
    expect(existsSync(join(root, 'srv', 'gifts'))).toBe(false);

    const forced = await deployCli(['srv/gifts', ALLOW_STALE_DIST]);
    expect(forced.stderr).toBe('');
    expect(forced.code).toBe(0);
    expect(JSON.parse(read(join(root, 'srv', 'gifts', 'builds', 'latest.json')))).toMatchObject({ id: 'b1' });
  });

  it('publishes a current dist/ as it is', async () => {
    const published = await deployCli(['srv/gifts']);
    expect(published.stderr).toBe('');
    expect(published.code).toBe(0);
    expect(JSON.parse(read(join(root, 'srv', 'gifts', 'builds', 'latest.json')))).toMatchObject({ id: 'b1' });
  });

  it('stage refuses a stale dist/, and stages it with --allow-stale-dist, changing nothing current', async () => {
    write(join(pkg, 'src', 'page.tsx'), 'export const title = "Choose";\n');
    const refused = await deployCli(['srv/gifts'], 'stage');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('stage: remote-gifts/dist is not the build of its sources');

    const staged = await deployCli(['srv/gifts', ALLOW_STALE_DIST], 'stage');
    expect(staged.stderr).toBe('');
    expect(staged.code).toBe(0);
    expect(staged.stdout).toContain('deploy: build b1 staged in');
    expect(existsSync(join(root, 'srv', 'gifts', 'builds', 'b1'))).toBe(true);
    expect(existsSync(join(root, 'srv', 'gifts', 'builds', 'latest.json'))).toBe(false);
  });

  it('release refuses a stale dist/ before it stages anything', () => {
    write(join(pkg, 'src', 'page.tsx'), 'export const title = "Choose";\n');
    const refused = deployProcess(
      ['srv/gifts', '--host', 'http://127.0.0.1:1', '--prometheus', 'http://127.0.0.1:1'],
      'release',
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('release: remote-gifts/dist is not the build of its sources');
    expect(existsSync(join(root, 'srv', 'gifts'))).toBe(false);
  });
});

describe('npm run deploy of a remote the registry does not name', () => {
  const NEWS_SPEC = `export const REMOTE_NAME = 'news';
export const REMOTE_SPEC = {
  packageDir: 'remote-news',
  port: 3005,
  portEnv: 'REMOTE_NEWS_PORT',
  urlEnv: 'REMOTE_NEWS_URL',
  exposes: {
    StoryPage: {
      file: './src/exposed/story-page.tsx',
      routes: [{ path: '/news/:storyId', layout: 'default', title: 'Story' }],
    },
  },
};
`;
  let news: string;

  /** remote-news/ with its own remote-spec.ts, built and stamped as `npm run build -w remote-news` does. */
  beforeEach(() => {
    news = join(root, 'remote-news');
    write(join(news, 'remote-spec.ts'), NEWS_SPEC);
    write(join(news, 'src', 'exposed', 'story-page.tsx'), 'export const title = "A story";\n');
    write(join(news, 'package.json'), '{ "name": "remote-news" }\n');
    makeBuild(join(news, 'dist'), 'n1', 1000);
    write(join(news, 'dist-server', 'main.js'), '// its server\n');
    writeStamp(root, 'remote-news', inputsHash(root, 'remote-news'), partMarkers(root, 'remote-news'));
  });

  const deployNews = (args: string[]) => deployCli(args, 'deploy', news);

  it('is a part its build stamps, as the registry remotes are', () => {
    expect(partMarkers(root, 'remote-news')).toEqual(partMarkers(root, 'remote-gifts'));
    expect(partMarkers(root, 'remote-nothing')).toBeUndefined();
  });

  it('publishes its dist/ with its builds/latest.json, and refuses it once its sources changed', async () => {
    const published = await deployNews(['srv/news']);
    expect(published.stderr).toBe('');
    expect(published.code).toBe(0);
    expect(JSON.parse(read(join(root, 'srv', 'news', 'builds', 'latest.json')))).toMatchObject({ id: 'n1' });

    write(join(news, 'src', 'exposed', 'story-page.tsx'), 'export const title = "Another story";\n');
    const refused = await deployNews(['srv/news']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('remote-news/dist is not the build of its sources');
  });

  it('stages a build and names the next commands, with no gate or release run, which take the registry remotes only', async () => {
    const staged = await deployNews(['srv/news', '--stage']);
    expect(staged.stderr).toBe('');
    expect(staged.code).toBe(0);
    expect(staged.stdout).toContain('npm run canary -w remote-news -- ');
    expect(staged.stdout).toMatch(/npm run deploy -w remote-news -- \S+ --build \S+/);
    expect(staged.stdout).not.toContain('npm run gate');
    expect(staged.stdout).not.toContain('npm run release');
  });
});
