/** Manifests read to compose the route table, each taken once by the loading plugin. */

export interface ManifestAnswer {
  status: number;
  statusText: string;
  headers: Headers;
  text: string;
}

export interface ManifestReads {
  /** The manifest at `url` as JSON; undefined when it cannot be fetched in time, or is not JSON. */
  read(url: string): Promise<unknown>;
  take(url: string): ManifestAnswer | undefined;
}

export interface ManifestReadsOptions {
  timeoutMs: number;
  fetch?: typeof fetch;
  log?: (message: string, error: unknown) => void;
}

export function createManifestReads({
  timeoutMs,
  fetch = (input, init) => window.fetch(input, init),
  log = (message, error) => console.warn(message, error),
}: ManifestReadsOptions): ManifestReads {
  const answers = new Map<string, ManifestAnswer>();
  return {
    async read(url) {
      try {
        const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
        if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
        const text = await response.text();
        const manifest: unknown = JSON.parse(text);
        const { status, statusText, headers } = response;
        answers.set(new URL(url).href, { status, statusText, headers, text });
        return manifest;
      } catch (error) {
        log(`Reading the manifest ${url} failed; the routes it publishes are not known`, error);
        return undefined;
      }
    },
    take(url) {
      // As the runtime spells it after the loading plugin resolved it (host names lower-cased).
      const key = new URL(url).href;
      const answer = answers.get(key);
      answers.delete(key);
      return answer;
    },
  };
}
