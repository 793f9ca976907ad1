/**
 * Cache rules for every served build: content-hashed files never change, so browsers keep them
 * a year; everything that names the current build (entries, manifests, HTML, payloads) must be
 * revalidated on each use so a deploy is seen at once.
 */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

const HASHED_FILE = /[.-][0-9a-f]{8,}\.[a-z0-9]+$/;

export function cacheControlFor(relativePath: string): string {
  const fileName = relativePath.split('/').pop() ?? '';
  return HASHED_FILE.test(fileName) ? IMMUTABLE : REVALIDATE;
}
