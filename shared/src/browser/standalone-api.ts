/**
 * The API a remote's standalone shell talks to: `?api=<url>` on the page's address, else the
 * API's port (API_PORT when the remote was built, 3004 by default) on the hostname the page was
 * opened at, as the host's pages find it (docs/decisions/0017-any-address-in-development.md).
 */
export function standaloneApiBaseUrl(
  location: Pick<Location, 'search' | 'protocol' | 'hostname'>,
  apiPort: number,
): string {
  const given = new URLSearchParams(location.search).get('api');
  if (given) return given;
  return `${location.protocol}//${location.hostname}:${apiPort}`;
}
