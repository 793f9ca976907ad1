/**
 * Payloads are published next to this remote's remoteEntry.js, so they are fetched from the
 * remote's own origin whichever host loads it. Outside webpack (tests), the document's base.
 */
export function payloadUrl(page: string): string {
  const publicPath = typeof __webpack_public_path__ === 'string' ? __webpack_public_path__ : '';
  // A relative public path (never for a remote, but cheap to allow) resolves against the page.
  return new URL(`payload/${page}.json`, new URL(publicPath, document.baseURI)).href;
}
