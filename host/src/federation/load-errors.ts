/** Telling a failed download of federated code apart from a bug in it. */
import { errorMessage } from 'shared/http-error';

/** A remote, its entry or one of its chunks could not be fetched or started. */
export class RemoteLoadError extends Error {
  readonly statusCode = 500;
  readonly statusMessage = 'Internal Server Error';

  constructor(
    readonly remote: string,
    readonly module: string,
    cause: unknown,
  ) {
    super(`The ${remote} remote could not load ${module}: ${summarise(cause)}.`, { cause });
    this.name = 'RemoteLoadError';
  }
}

export class RemoteTimeoutError extends Error {
  constructor(remote: string, module: string, ms: number) {
    super(`loading ${remote}/${module} took longer than ${ms} ms`);
    this.name = 'RemoteTimeoutError';
  }
}

const CODE_LOAD_ERROR_NAMES = new Set(['ChunkLoadError', 'ScriptNetworkError', 'ScriptExecutionError']);

// The federation runtime's codes for manifest, entry and container failures.
const CODE_LOAD_ERROR_MESSAGE = /RUNTIME-0(0[1-9]|1\d)|Loading (CSS )?chunk \S+ failed|ScriptNetworkError/;

/**
 * A download of federated code failed, as a page can hit while rendering (a chunk it loads
 * lazily). Deliberately narrow: a failed API request is the page's business, not a reason to
 * reload.
 */
export function isCodeLoadFailure(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const name = (error as { name?: unknown }).name;
  if (typeof name === 'string' && CODE_LOAD_ERROR_NAMES.has(name)) return true;
  return CODE_LOAD_ERROR_MESSAGE.test(errorMessage(error));
}

const LOAD_ERROR_NAMES = new Set([
  'ChunkLoadError',
  'ScriptNetworkError',
  'ScriptExecutionError',
  'RemoteTimeoutError',
  'RemoteLoadError',
]);

// Within remotes.load() a failed fetch or a timeout can only be the remote's own download.
const LOAD_ERROR_MESSAGE =
  /RUNTIME-0(0[1-9]|1\d)|Loading (CSS )?chunk \S+ failed|ScriptNetworkError|Failed to fetch|NetworkError|timed out/;

/** Any failure of `remotes.load()` to download a remote: its manifest, entry, chunks, or a timeout. */
export function isLoadFailure(error: unknown): boolean {
  if (!(error instanceof Error) && (typeof error !== 'object' || error === null)) return false;
  const name = (error as { name?: unknown }).name;
  if (typeof name === 'string' && LOAD_ERROR_NAMES.has(name)) return true;
  return LOAD_ERROR_MESSAGE.test(errorMessage(error));
}

const PLAIN_CAUSES: [RegExp, string][] = [
  [/RUNTIME-003/, 'its manifest could not be fetched'],
  [/RUNTIME-013/, 'its manifest is not a valid federation manifest'],
  [/RUNTIME-008|ScriptNetworkError/, 'its entry script could not be loaded'],
];

/** The cause in words a visitor can pass on, keeping the runtime's code or the chunk's URL. */
function summarise(cause: unknown): string {
  const message = errorMessage(cause);
  // The host's own refusal (loading-plugin.ts), whichever runtime error carries it.
  const refused = /\bRefused (\S+): ([^\n]+)/.exec(message);
  if (refused) return `the host refused ${refused[1]} (${refused[2]})`;
  const code = /RUNTIME-\d{3}/.exec(message)?.[0];
  for (const [pattern, plain] of PLAIN_CAUSES) if (pattern.test(message)) return code ? `${plain} (${code})` : plain;
  const chunk = /Loading (?:CSS )?chunk (\S+) failed/.exec(message);
  if (chunk) {
    const url = /\((?:error|missing|timeout): ([^)]+)\)/.exec(message)?.[1];
    return `a code chunk (${url ?? chunk[1]}) could not be loaded`;
  }
  return (message.split('\n')[0] ?? '').trim() || 'unknown error';
}
