/** A page's load, bounded per attempt and tried again after a failed download (docs/decisions/0051). */
import { isLoadFailure, RemoteTimeoutError } from './load-errors';

/** A blip in the network should cost a moment, not a page reload. */
export const RETRY_DELAYS_MS = [250, 750] as const;

export interface AttemptPolicy {
  timeoutMs: number;
  retryDelaysMs: readonly number[];
  log: (message: string, error: unknown) => void;
}

export function isTimeout(error: unknown): boolean {
  return error instanceof RemoteTimeoutError || (error instanceof Error && /\btimed out\b/.test(error.message));
}

/** A timeout is not retried: the visitor has waited long enough. */
export function isRetriable(error: unknown): boolean {
  return !isTimeout(error) && isLoadFailure(error);
}

export function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export async function loadWithRetries(
  loadRemote: (id: string) => Promise<unknown>,
  remote: string,
  module: string,
  policy: AttemptPolicy,
  onRetry: (error: unknown) => void,
): Promise<unknown> {
  const id = `${remote}/${module}`;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await withTimeout(
        loadRemote(id),
        policy.timeoutMs,
        () => new RemoteTimeoutError(remote, module, policy.timeoutMs),
      );
    } catch (error) {
      const delay = policy.retryDelaysMs[attempt];
      if (delay === undefined || !isRetriable(error)) throw error;
      policy.log(`Loading ${id} failed; trying again in ${delay} ms.`, error);
      onRetry(error);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
