/** @jest-environment node */
import { IMMUTABLE, REVALIDATE, cacheControlFor } from './cache-policy';

describe('cacheControlFor', () => {
  it('uses a year-long immutable policy and a revalidate-every-time policy', () => {
    expect(IMMUTABLE).toBe('public, max-age=31536000, immutable');
    expect(REVALIDATE).toBe('no-cache');
  });

  it.each([
    'main.1a2b3c4d.js',
    '227.9f8d9dbda19e10d8.js',
    '__federation_expose_GamePage.6e3f5207f5ca80f0.js',
    'styles.0123abcd.css',
    'static/media/logo.deadbeef01.svg',
    'nested/dir/464.d0c134136b37df86.js',
  ])('keeps the content-hashed %s for a year', (path) => {
    expect(cacheControlFor(path)).toBe('public, max-age=31536000, immutable');
  });

  it.each([
    'remoteEntry.js',
    'mf-manifest.json',
    'mf-stats.json',
    'index.html',
    '',
    'builds/latest.json',
    '_app/builds/latest.json',
    'payload/about.json',
    'x.js.LICENSE.txt',
    '325.9ad3d2682ceabcfc.js.LICENSE.txt',
    'main.1234567.js',
    'main.ABCDEF12.js',
    'deadbeefcafe/remoteEntry.js',
  ])('revalidates %p on every use', (path) => {
    expect(cacheControlFor(path)).toBe('no-cache');
  });

  // A build's meta file is named by its build id and written once, whatever the id looks like.
  it.each([
    'builds/meta/c35f29a5-a23f-4db1-8c22-216bebc6615a.json',
    '_app/builds/meta/1f2e3d4c.json',
    'builds/meta/release-42.json',
  ])('keeps the build meta file %s for a year', (path) => {
    expect(cacheControlFor(path)).toBe('public, max-age=31536000, immutable');
  });

  it('does not take a dash before hex digits for a content hash', () => {
    expect(cacheControlFor('payload/terms-2026abcdef.json')).toBe('no-cache');
    expect(cacheControlFor('vendor-0123abcd.js')).toBe('no-cache');
  });
});
