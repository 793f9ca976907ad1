/** `?api=<url>`, else API_PORT on the page's hostname (docs/decisions/0017-any-address-in-development.md). */
export function standaloneApiBaseUrl(
  location: Pick<Location, 'search' | 'protocol' | 'hostname'>,
  apiPort: number,
): string {
  const given = new URLSearchParams(location.search).get('api');
  if (given) return given;
  return `${location.protocol}//${location.hostname}:${apiPort}`;
}
