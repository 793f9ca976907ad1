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

/** A change to the fixture: the file at `path` (inside it) rewritten with `text`. */
type Change = [path: string, text: string];

/**
 * `configSourcesHash` of the fixture's webpack.config.ts, loaded as webpack-cli loads a part's
 * config: through tsx's require hooks, in a process of its own. The hash comes first as loaded,
 * then after each change in turn, the process reading what is on disk at each call as a later
 * build's would.
 */
function cacheVersions(changes: Change[] = []): string[] {
  const config = join(dir, 'webpack.config.ts');
  const script = `
    const { writeFileSync } = require('node:fs');
    const { join } = require('node:path');
    require(${JSON.stringify(config)});
    const { configSourcesHash } = require(${JSON.stringify(join(ROOT, 'webpack.config.base.ts'))});
    const hashes = [configSourcesHash(${JSON.stringify(config)})];
    for (const [path, text] of ${JSON.stringify(changes)}) {
      writeFileSync(join(${JSON.stringify(dir)}, path), text);
      hashes.push(configSourcesHash(${JSON.stringify(config)}));
    }
    process.stdout.write(JSON.stringify(hashes));`;
  const out = execFileSync(process.execPath, ['--require', 'tsx/cjs', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  return JSON.parse(out) as string[];
}

/** The hash of a process that changed nothing, then one that made each change: as many builds. */
let untouched: string;
let asLoaded: string;
let afterNotes: string;
let afterPackage: string;
let afterPages: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'webpack-cache-version-'));
  write(
    'webpack.config.ts',
    "import { PAGES } from './build/pages';\nimport 'a-package';\nexport default { PAGES };\n",
  );
  write('build/pages.ts', "export const PAGES = ['home'];\n");
  write('node_modules/a-package/index.js', 'module.exports = 1;\n');
  write('notes.ts', 'export {};\n');
  [untouched = ''] = cacheVersions();
  [asLoaded = '', afterNotes = '', afterPackage = '', afterPages = ''] = cacheVersions([
    ['notes.ts', 'export const NOTHING_LOADS_THIS = 1;\n'],
    ['node_modules/a-package/index.js', 'module.exports = 2;\n'],
    ['build/pages.ts', "export const PAGES = ['home', 'about'];\n"],
  ]);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the webpack cache's version (webpack.config.base.ts)", () => {
  it('stays the same while the configs and what they load stay the same, so a second build reuses the cache', () => {
    expect(untouched).toMatch(/^[0-9a-f]{16}$/);
    expect(asLoaded).toBe(untouched);
    expect(afterNotes).toBe(untouched);
  });

  it("leaves packages to package-lock.json: a package's files are not read one by one", () => {
    expect(afterPackage).toBe(afterNotes);
  });

  it('changes when a file a config loads changes, however deep, so no build reuses entries made by the old config', () => {
    expect(afterPages).not.toBe(afterPackage);
  });
});
