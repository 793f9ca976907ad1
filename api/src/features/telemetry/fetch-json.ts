/**
 * A JSON document another team publishes (a build file, a remote's manifest), read within a
 * timeout and a size: a larger answer is dropped unread, so no publisher can make the API hold
 * more than that.
 */

/** The body's text, read only as far as `maxBytes`: past it, the answer is dropped unread. */
async function cappedText(response: Response, url: string, maxBytes: number): Promise<string> {
  const tooLarge = () => new Error(`${url} is larger than ${maxBytes} bytes`);
  if (Number(response.headers.get('content-length')) > maxBytes) {
    await response.body?.cancel();
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.byteLength;
    if (size > maxBytes) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The JSON at `url`; rejects on a failed answer, a timeout, a body over `maxBytes` or one that is not JSON. */
export async function getJson(url: string, timeoutMs: number, maxBytes: number): Promise<unknown> {
  const response = await fetch(url, {
    signal: AbortSignal.timeout(timeoutMs),
    headers: { accept: 'application/json' },
  });
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`${url} answered ${response.status}`);
  }
  const text = await cappedText(response, url, maxBytes);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error(`${url} is not JSON`);
  }
}
