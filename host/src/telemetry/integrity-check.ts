/**
 * Whether the browser refused a failed script for its integrity: asked only once a script has
 * failed, so it loads apart from the page's first scripts (page-telemetry.ts).
 */

/**
 * The bytes at `url` fail `integrity`, though the server gives them. Asked for once, as the
 * browser asks for a script with `crossorigin` (fetch's defaults: CORS, cookies only to the page's
 * own origin), and the bytes' digest compared; a page without WebCrypto (not a secure context)
 * has the browser check them, a second request only when the first was answered.
 */
export async function refusedForIntegrity(url: string, integrity: string, fetchFn: typeof fetch): Promise<boolean> {
  try {
    const response = await fetchFn(url);
    if (!response.ok) return false; // the server failed: no bytes to refuse
    const subtle = globalThis.crypto?.subtle;
    if (!subtle)
      return await fetchFn(url, { integrity }).then(
        () => false,
        () => true,
      );
    const digest = new Uint8Array(await subtle.digest('SHA-384', await response.arrayBuffer()));
    return `sha384-${btoa(String.fromCharCode(...digest))}` !== integrity;
  } catch {
    return false; // the network failed
  }
}
