/** Payloads sit beside remoteEntry.js, on the remote's own origin whichever host loads it. */
export function payloadUrl(page: string): string {
  const publicPath = typeof __webpack_public_path__ === 'string' ? __webpack_public_path__ : '';
  return new URL(`payload/${page}.json`, new URL(publicPath, document.baseURI)).href;
}
