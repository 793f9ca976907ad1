/**
 * A request's error as a page needs it: shown inline with "Try again", or thrown for the host's
 * error page.
 */
import { HttpError, toHttpError } from '../http-error';
import { isRetryable, retryAfterSeconds } from './retry-rule';

export interface ApiFailure {
  statusCode: number;
  message: string;
  retryable: boolean;
  retryAfterSeconds?: number;
}

export function toApiFailure(error: unknown): ApiFailure {
  const { statusCode, message } = toHttpError(error);
  return { statusCode, message, retryable: isRetryable(error), retryAfterSeconds: retryAfterSeconds(error) };
}

/** 400 means the API refused the id's shape: for a visitor, like 404, a link to nothing. */
export function loadFailureToThrow(failure: ApiFailure, notFound: () => HttpError): HttpError | undefined {
  if (failure.retryable) return undefined;
  if (failure.statusCode === 404 || failure.statusCode === 400) return notFound();
  return new HttpError(failure.statusCode, failure.message);
}
