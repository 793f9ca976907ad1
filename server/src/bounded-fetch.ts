/**
 * Reading what another team publishes (a deployment, a manifest, a page's markup) within a time
 * and a size: a larger answer is dropped unread, so no publisher can make a server hold more.
 */

/** A response's body as text, refused once it passes `maxBytes` (Content-Length told or not). */
export async function boundedText(response: Response, url: string, maxBytes: number): Promise<string> {
  const tooLarge = () => new Error(`${url} is larger than ${maxBytes} bytes, the most read of such a file`);
  if (Number(response.headers.get('content-length')) > maxBytes) {
    await response.body?.cancel();
    throw tooLarge();
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The JSON at `url`; rejects on a failed answer, a timeout, a body over `maxBytes` or one that is not JSON. */
export async function getBoundedJson(url: string, timeoutMs: number, maxBytes: number): Promise<unknown> {
  const response = await fetch(url, {
    signal: AbortSignal.timeout(timeoutMs),
    headers: { accept: 'application/json' },
  });
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`${url} answered ${response.status}`);
  }
  const text = await boundedText(response, url, maxBytes);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error(`${url} is not JSON`);
  }
}
