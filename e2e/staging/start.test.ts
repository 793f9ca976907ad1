import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { missingBuild, missingBuildMessage } from './start';

const root = mkdtempSync(join(tmpdir(), 'staging-build-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('before staging starts', () => {
  it('names every built file missing and says to build first', () => {
    expect(missingBuild(root)).toEqual([
      'api/dist/index.js',
      'host/dist/index.html',
      'host/dist-server/main.js',
      'remote-gifts/dist/mf-manifest.json',
      'remote-redeem/dist/mf-manifest.json',
      'remote-content/dist/mf-manifest.json',
    ]);
    expect(missingBuildMessage(['api/dist/index.js'])).toBe(
      'api/dist/index.js missing: staging serves the built parts, so run npm run build first',
    );
  });

  it('finds nothing missing once every part is built', () => {
    for (const file of missingBuild(root)) {
      mkdirSync(join(root, file, '..'), { recursive: true });
      writeFileSync(join(root, file), '');
    }
    expect(missingBuild(root)).toEqual([]);
  });
});
