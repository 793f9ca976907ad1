/**
 * The one rule for which failed requests are worth sending again: network failures (reported as
 * 503), 408, 429 and 5xx; any other status is the server's considered answer.
 */
import { isHttpError } from '../http-error';

/** A short outage is bridged, a long one is shown. */
export const MAX_AUTOMATIC_RETRIES = 2;
export const RETRY_BASE_DELAY_MS = 500;
/** A longer Retry-After is the visitor's to wait for (a "Try again" button), not a spinner's. */
export const MAX_RETRY_AFTER_MS = 10_000;

export function isRetryableStatus(statusCode: number): boolean {
  return statusCode === 408 || statusCode === 429 || (statusCode >= 500 && statusCode <= 599);
}

export function isRetryable(error: unknown): boolean {
  return isHttpError(error) && isRetryableStatus(error.statusCode);
}

export function retryAfterSeconds(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('retryAfterSeconds' in error)) return undefined;
  const seconds = error.retryAfterSeconds;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
}

function retryAfterMs(error: unknown): number | undefined {
  const seconds = retryAfterSeconds(error);
  return seconds === undefined ? undefined : seconds * 1000;
}

function waitedOut(error: unknown): boolean {
  if (isHttpError(error) && error.statusCode === 408) return true;
  return typeof error === 'object' && error !== null && 'timedOut' in error && error.timedOut === true;
}

/** Only quick failures retry by themselves; after a timeout the visitor has waited enough. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= MAX_AUTOMATIC_RETRIES || !isRetryable(error) || waitedOut(error)) return false;
  const wait = retryAfterMs(error);
  return wait === undefined || wait <= MAX_RETRY_AFTER_MS;
}

export function retryDelay(failureCount: number, error: unknown): number {
  return retryAfterMs(error) ?? RETRY_BASE_DELAY_MS * 2 ** failureCount;
}
