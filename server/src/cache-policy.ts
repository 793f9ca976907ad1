/**
 * Cache rules for every served build, decided by what a file is, not by how its name happens
 * to look: content-hashed chunks and a build's meta file (named by its build id, written once)
 * never change, so browsers keep them a year; everything that names the current build (entries,
 * manifests, `latest.json`, HTML, payloads) is revalidated on each use so a deploy is seen at once.
 */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

// webpack.config.base.ts names chunks `[name].[contenthash:16].js` and entries `[name].[fullhash:8].js`.
const CONTENT_HASHED = /\.[0-9a-f]{8,}\.(js|css|svg|png|jpg|webp|woff2)$/;
const BUILD_META = /(^|\/)builds\/meta\/[^/]+\.json$/;

export function cacheControlFor(relativePath: string): string {
  const fileName = relativePath.split('/').pop() ?? '';
  return CONTENT_HASHED.test(fileName) || BUILD_META.test(relativePath) ? IMMUTABLE : REVALIDATE;
}
