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
    super(`The ${remote} remote could not load ${module}: ${summarise(cause)}`, { cause });
    this.name = 'RemoteLoadError';
  }
}

export class RemoteTimeoutError extends Error {
  constructor(remote: string, module: string, ms: number) {
    super(`loading ${remote}/${module} took longer than ${ms} ms`);
    this.name = 'RemoteTimeoutError';
  }
}

const LOAD_ERROR_NAMES = new Set([
  'ChunkLoadError',
  'ScriptNetworkError',
  'ScriptExecutionError',
  'RemoteTimeoutError',
  'RemoteLoadError',
]);

// The federation runtime's codes for manifest, entry and container failures.
const LOAD_ERROR_MESSAGE = /RUNTIME-0(0[1-9]|1\d)|Loading (CSS )?chunk \S+ failed|ScriptNetworkError|Failed to fetch|NetworkError|timed out/;

export function isLoadFailure(error: unknown): boolean {
  if (!(error instanceof Error) && (typeof error !== 'object' || error === null)) return false;
  const name = (error as { name?: unknown }).name;
  if (typeof name === 'string' && LOAD_ERROR_NAMES.has(name)) return true;
  return LOAD_ERROR_MESSAGE.test(errorMessage(error));
}

/** The first line of a runtime error, without its documentation links. */
function summarise(cause: unknown): string {
  const first = errorMessage(cause).split('\n')[0] ?? '';
  return first.replace(/\s*#?\s*(View|See) the docs.*$/i, '').trim() || 'unknown error';
}
