/** Whether the browser refused a failed script for its integrity; loaded only after a failure. */

/** Without WebCrypto (not a secure context) the browser checks, a second request. */
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
