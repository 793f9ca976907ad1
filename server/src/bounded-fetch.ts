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

/**
 * The JSON at `url`, with the answer's headers; rejects on a failed answer, a timeout, a body over
 * `maxBytes` or one that is not JSON.
 */
export async function getBoundedJsonAnswer(
  url: string,
  timeoutMs: number,
  maxBytes: number,
  fetchImpl: typeof fetch = fetch,
): Promise<{ body: unknown; headers: Headers }> {
  // Typed apart: not every workspace's fetch types know `cache`, which Node's fetch takes.
  const init: RequestInit & { cache?: string } = {
    signal: AbortSignal.timeout(timeoutMs),
    cache: 'no-store',
    headers: { accept: 'application/json' },
  };
  const response = await fetchImpl(url, init as RequestInit);
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`${url} answered ${response.status}`);
  }
  const text = await boundedText(response, url, maxBytes);
  try {
    return { body: JSON.parse(text) as unknown, headers: response.headers };
  } catch {
    throw new Error(`${url} is not JSON`);
  }
}

export async function getBoundedJson(url: string, timeoutMs: number, maxBytes: number): Promise<unknown> {
  return (await getBoundedJsonAnswer(url, timeoutMs, maxBytes)).body;
}
