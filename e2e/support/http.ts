/** Plain HTTP requests to the test servers, outside the browser, for headers and build files. */
import { get } from 'node:http';

export interface HttpResult {
  status: number;
  headers: Headers;
  body: string;
}

/** GET without following redirects; `accept` defaults to what a script or fetch would send. */
export async function httpGet(url: string, headers: Record<string, string> = {}): Promise<HttpResult> {
  const response = await fetch(url, {
    headers: { accept: '*/*', ...headers },
    redirect: 'manual',
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

/** GET as a browser asks for a page. */
export function httpGetPage(url: string): Promise<HttpResult> {
  return httpGet(url, { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' });
}

/** GET a JSON file that must exist (HTTP 200, JSON body). */
export async function httpGetJson<T = unknown>(url: string): Promise<T> {
  const result = await httpGet(url, { accept: 'application/json' });
  if (result.status !== 200) throw new Error(`GET ${url} answered HTTP ${result.status}: ${result.body.slice(0, 200)}`);
  return JSON.parse(result.body) as T;
}

export interface RawResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The bytes as sent, not decompressed. */
  body: Buffer;
}

/** GET with node:http: the body exactly as sent (a compressed body stays compressed). */
export function httpGetRaw(url: string, headers: Record<string, string> = {}): Promise<RawResult> {
  return new Promise((resolve, reject) => {
    const request = get(url, { headers: { accept: '*/*', ...headers }, timeout: 10_000 }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error(`GET ${url} timed out`)));
    request.on('error', reject);
  });
}
