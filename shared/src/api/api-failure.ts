/**
 * Any error from a request as what a page needs to decide: show it inline with "Try again", or
 * throw it for the host's error page. Every remote decides by these two functions.
 */
import { HttpError, toHttpError } from '../http-error';
import { isRetryable, retryAfterSeconds } from './retry-rule';

export interface ApiFailure {
  statusCode: number;
  message: string;
  /** Sending the same request again may succeed (retry-rule.ts). */
  retryable: boolean;
  /** From the answer's Retry-After. */
  retryAfterSeconds?: number;
}

export function toApiFailure(error: unknown): ApiFailure {
  const { statusCode, message } = toHttpError(error);
  return { statusCode, message, retryable: isRetryable(error), retryAfterSeconds: retryAfterSeconds(error) };
}

/**
 * The error a page throws for a load that failed, or undefined when the page shows the failure
 * itself with "Try again". 400 means the API refused the id's shape: for a visitor, like 404,
 * a link to nothing, which the page names in its own words (`notFound`).
 */
export function loadFailureToThrow(failure: ApiFailure, notFound: () => HttpError): HttpError | undefined {
  if (failure.retryable) return undefined;
  if (failure.statusCode === 404 || failure.statusCode === 400) return notFound();
  return new HttpError(failure.statusCode, failure.message);
}
