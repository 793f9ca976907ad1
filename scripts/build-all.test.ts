/** @jest-environment node */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { buildConcurrency, buildParts, buildTasks } from './build-all';
import { inputsHash, PARTS, readStamp, staleReason, writeStamp } from './build-stamp';
import { partsToBuild } from './run-all';

let root: string;

function write(path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

/** A script that writes `files` (relative to its package), or exits 3 when `fail`. */
function buildScript(files: readonly string[], fail = false): string {
  const body = fail
    ? 'process.exit(3)'
    : `for (const f of ${JSON.stringify(files)}) { fs.mkdirSync(path.dirname(f), { recursive: true }); fs.writeFileSync(f, String(Date.now())); }`;
  return `node -e ${JSON.stringify(`const fs = require('fs'), path = require('path'); ${body}`)}`;
}

/** Every part of the registry with a package.json whose build steps write its markers. */
function repository(failing: readonly string[] = []): void {
  write('package.json', JSON.stringify({ name: 'repo', private: true, workspaces: Object.keys(PARTS) }));
  write('package-lock.json', '{}');
  write('webpack.config.base.ts', 'export {};');
  write('shared/src/ids.ts', 'export const ID = 1;');
  for (const [part, markers] of Object.entries(PARTS)) {
    const web = markers.filter((marker) => marker.startsWith('dist/') && part !== 'api');
    const server = markers.filter((marker) => !web.includes(marker));
    const scripts: Record<string, string> = { 'build:server': buildScript(server, failing.includes(part)) };
    if (web.length > 0) scripts['build:web'] = buildScript(web);
    write(`${part}/package.json`, JSON.stringify({ name: part, scripts }));
    write(`${part}/src/index.ts`, `export const PART = '${part}';`);
  }
}

/** As `npm run build` leaves them: every part built and stamped. */
function builtAndStamped(): void {
  for (const [part, markers] of Object.entries(PARTS)) {
    for (const marker of markers) write(`${part}/${marker}`, 'built');
    writeStamp(root, part, inputsHash(root, part));
  }
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'build-all-test-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('partsToBuild (npm start)', () => {
  it('builds nothing when every part was built from the sources as they are', () => {
    repository();
    builtAndStamped();
    expect(partsToBuild(root)).toEqual([]);
  });

  it('rebuilds a part whose sources changed since its build, and only that part, instead of serving the old build', () => {
    repository();
    builtAndStamped();
    write('remote-gifts/src/index.ts', "export const PART = 'changed';");
    expect(partsToBuild(root)).toEqual([{ part: 'remote-gifts', reason: 'sources changed since its build' }]);
  });

  it('rebuilds every part when shared changed, since each compiles it in', () => {
    repository();
    builtAndStamped();
    write('shared/src/ids.ts', 'export const ID = 2;');
    expect(partsToBuild(root).map(({ part }) => part)).toEqual(Object.keys(PARTS));
  });

  it('builds the parts that were never built', () => {
    repository();
    expect(partsToBuild(root).map(({ part }) => part)).toEqual(Object.keys(PARTS));
  });
});

describe('buildTasks', () => {
  it("takes each part's build:web then build:server, webpack's first and the host's first of those", () => {
    repository();
    const tasks = buildTasks(root, ['api', 'remote-gifts', 'host']);
    expect(tasks.map(({ part, script }) => `${part}:${script}`)).toEqual([
      'host:build:web',
      'remote-gifts:build:web',
      'host:build:server',
      'api:build:server',
      'remote-gifts:build:server',
    ]);
  });

  it('refuses a part with neither step', () => {
    repository();
    write('api/package.json', JSON.stringify({ name: 'api', scripts: { build: 'true' } }));
    expect(() => buildTasks(root, ['api'])).toThrow('api/package.json has neither build:web nor build:server');
  });
});

describe('buildConcurrency', () => {
  it('is BUILD_CONCURRENCY when set, else one task per core', () => {
    expect(buildConcurrency({ BUILD_CONCURRENCY: '3' })).toBe(3);
    expect(buildConcurrency({ BUILD_CONCURRENCY: 'many' })).toBeGreaterThanOrEqual(1);
    expect(buildConcurrency({})).toBeGreaterThanOrEqual(1);
  });
});

describe('buildParts', () => {
  it('builds and stamps the parts that built, and names the one that failed without a stamp', async () => {
    repository(['host']);
    const output = new PassThrough();
    let printed = '';
    output.on('data', (chunk: Buffer) => (printed += chunk.toString()));

    const failed = await buildParts(['api', 'remote-redeem', 'host'], { root, output });

    expect(failed).toEqual(['host']);
    expect(staleReason(root, 'api')).toBeUndefined();
    expect(staleReason(root, 'remote-redeem')).toBeUndefined();
    expect(readStamp(root, 'host')).toBeUndefined();
    expect(printed).toMatch(/\[host:server\].* exited with code 3/);
  }, 60_000);
});
