/** @jest-environment node */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const ROOT = join(__dirname, '..');
let dir: string;

function write(path: string, text: string): void {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
}

/**
 * `configSourcesHash` of the fixture's webpack.config.ts, loaded as webpack-cli loads a part's
 * config: through tsx's require hooks, in a process of its own.
 */
function cacheVersion(): string {
  const script = `
    require(${JSON.stringify(join(dir, 'webpack.config.ts'))});
    const { configSourcesHash } = require(${JSON.stringify(join(ROOT, 'webpack.config.base.ts'))});
    process.stdout.write(configSourcesHash(${JSON.stringify(join(dir, 'webpack.config.ts'))}));`;
  return execFileSync(process.execPath, ['--require', 'tsx/cjs', '-e', script], { cwd: ROOT, encoding: 'utf8' });
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'webpack-cache-version-'));
  write(
    'webpack.config.ts',
    "import { PAGES } from './build/pages';\nimport 'a-package';\nexport default { PAGES };\n",
  );
  write('build/pages.ts', "export const PAGES = ['home'];\n");
  write('node_modules/a-package/index.js', 'module.exports = 1;\n');
  write('notes.ts', 'export {};\n');
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("the webpack cache's version (webpack.config.base.ts)", () => {
  it('stays the same while the configs and what they load stay the same, so a second build reuses the cache', () => {
    const first = cacheVersion();
    write('notes.ts', 'export const NOTHING_LOADS_THIS = 1;\n');
    expect(cacheVersion()).toBe(first);
  });

  it('changes when a file a config loads changes, however deep, so no build reuses entries made by the old config', () => {
    const before = cacheVersion();
    write('build/pages.ts', "export const PAGES = ['home', 'about'];\n");
    expect(cacheVersion()).not.toBe(before);
  });

  it("leaves packages to package-lock.json: a package's files are not read one by one", () => {
    const before = cacheVersion();
    write('node_modules/a-package/index.js', 'module.exports = 2;\n');
    expect(cacheVersion()).toBe(before);
  });
});
