/** What the version check reads of the browser; tests give their own. */
import { watchHistoryRestores } from './restored-by-history';

export interface ConnectionInfo {
  effectiveType?: string;
  saveData?: boolean;
}

export interface VersionCheckDeps {
  fetch: typeof fetch;
  now: () => number;
  setTimeout: (callback: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
  connection: () => ConnectionInfo | undefined;
  log: (message: string, error?: unknown) => void;
  restoredByHistory: () => boolean;
}

/** Fetched past every cache: a deployment's answer changes under the same URL. */
export async function freshJson(deps: Pick<VersionCheckDeps, 'fetch' | 'now'>, url: string): Promise<unknown> {
  const separator = url.includes('?') ? '&' : '?';
  const response = await deps.fetch(`${url}${separator}${deps.now()}`, { cache: 'no-store' });
  if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
  return response.json();
}

export function browserVersionCheckDeps(): VersionCheckDeps {
  return {
    fetch: (input, init) => window.fetch(input, init),
    now: () => Date.now(),
    setTimeout: (callback, ms) => window.setTimeout(callback, ms),
    clearTimeout: (handle) => window.clearTimeout(handle as number),
    connection: () => (navigator as Navigator & { connection?: ConnectionInfo }).connection,
    log: (message, error) => console.warn(message, error),
    restoredByHistory: watchHistoryRestores(window),
  };
}
