/** A URL path, percent-decoded; undefined when it is not valid percent-encoding. */
export function decodePath(pathname: string): string | undefined {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
}
