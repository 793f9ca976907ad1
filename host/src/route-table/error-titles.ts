/**
 * The document title of a page that shows an error instead of a route's page: what happened, in
 * a few plain words. The browser's error pages and the host's server (for a 404 it answers) use
 * the same ones.
 */
export const NOT_FOUND_TITLE = 'Page not found';

export function errorTitleFor(statusCode: number, unavailable: boolean): string {
  if (unavailable) return 'Unavailable right now';
  return statusCode === 404 ? NOT_FOUND_TITLE : 'Something went wrong';
}
