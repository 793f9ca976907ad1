/**
 * The one rule for which failed requests are worth sending again, for every part: the API
 * client's `retryable`, the pages' "Try again" and the query client's automatic retries.
 * Network failures (which the clients report as 503), 408, 429 and 5xx may pass; any other
 * status is the server's considered answer (400, 403, 404, 409, 410…) and will not change.
 */
import { isHttpError } from '../http-error';

/** Automatic retries after the first failure: a short outage is bridged, a long one is shown. */
export const MAX_AUTOMATIC_RETRIES = 2;
/** Waits between automatic retries without Retry-After: 500 ms, then 1 s. */
export const RETRY_BASE_DELAY_MS = 500;
/** A longer Retry-After is the visitor's to wait for (a "Try again" button), not a spinner's. */
export const MAX_RETRY_AFTER_MS = 10_000;

export function isRetryableStatus(statusCode: number): boolean {
  return statusCode === 408 || statusCode === 429 || (statusCode >= 500 && statusCode <= 599);
}

/** Only failures that carry an HTTP status count: anything else is a bug, and stays one. */
export function isRetryable(error: unknown): boolean {
  return isHttpError(error) && isRetryableStatus(error.statusCode);
}

/** The server's Retry-After in seconds, as the API client read it from the answer. */
export function retryAfterSeconds(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('retryAfterSeconds' in error)) return undefined;
  const seconds = error.retryAfterSeconds;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
}

function retryAfterMs(error: unknown): number | undefined {
  const seconds = retryAfterSeconds(error);
  return seconds === undefined ? undefined : seconds * 1000;
}

/** The request already took the whole timeout (the client's, or the server's 408). */
function waitedOut(error: unknown): boolean {
  if (isHttpError(error) && error.statusCode === 408) return true;
  return typeof error === 'object' && error !== null && 'timedOut' in error && error.timedOut === true;
}

/**
 * TanStack Query's `retry`: `failureCount` is how many attempts have failed before this one.
 * Only quick failures are retried by themselves (a refused connection, a 502/503 during a
 * redeploy or a database restart); after a timeout the visitor has waited enough, and chooses.
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= MAX_AUTOMATIC_RETRIES || !isRetryable(error) || waitedOut(error)) return false;
  const wait = retryAfterMs(error);
  return wait === undefined || wait <= MAX_RETRY_AFTER_MS;
}

/** TanStack Query's `retryDelay`: what the server asked for, else a doubling wait. */
export function retryDelay(failureCount: number, error: unknown): number {
  return retryAfterMs(error) ?? RETRY_BASE_DELAY_MS * 2 ** failureCount;
}
