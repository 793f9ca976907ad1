/** Hashed chunks and meta files never change; the rest names the current build. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

const CONTENT_HASHED = /\.[0-9a-f]{8,}\.(js|css|svg|png|jpg|webp|woff2)$/;
const BUILD_META = /(^|\/)builds\/meta\/[^/]+\.json$/;

export function cacheControlFor(relativePath: string): string {
  const fileName = relativePath.split('/').pop() ?? '';
  return CONTENT_HASHED.test(fileName) || BUILD_META.test(relativePath) ? IMMUTABLE : REVALIDATE;
}
