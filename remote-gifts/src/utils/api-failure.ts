/** Any error from an API call as what a page needs to decide: show it inline, offer a retry, or throw it. */
import { ApiError } from 'shared/api/client';
import { toHttpError } from 'shared/http-error';

export interface ApiFailure {
  statusCode: number;
  message: string;
  /** Sending the same request again may succeed (network failure, timeout or 5xx). */
  retryable: boolean;
  /** From a 429's Retry-After. */
  retryAfterSeconds?: number;
}

export function toApiFailure(error: unknown): ApiFailure {
  const { statusCode, message } = toHttpError(error);
  if (error instanceof ApiError) {
    return { statusCode, message, retryable: error.retryable, retryAfterSeconds: error.retryAfterSeconds };
  }
  // Not from the client (a bug in this remote, most likely): trying again will not help.
  return { statusCode, message, retryable: false };
}
