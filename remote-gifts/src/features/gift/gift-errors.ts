/** The gift page's failures that end on the host's error page rather than inside the page. */
import { formatDate } from 'shared/format';
import { HttpError } from 'shared/http-error';
import type { ApiFailure } from '../../utils/api-failure';

export const GIFT_NOT_FOUND = 'This gift does not exist. Check the link you were sent.';

export function giftNotFound(): HttpError {
  return new HttpError(404, GIFT_NOT_FOUND);
}

/** An expired gift is gone: the host's error page says so with 410 and the day it expired. */
export function giftExpired(expiresAt: string): HttpError {
  return new HttpError(410, `This gift expired on ${formatDate(expiresAt)} and can no longer be redeemed.`);
}

/** The error to throw for a failed load, or undefined when the page shows it with a retry. */
export function giftPageError(failure: ApiFailure): HttpError | undefined {
  // Trying again can help (outage, or the visitor's own rate limit): keep the visitor on the page.
  if (failure.retryable || failure.statusCode === 429) return undefined;
  // 400 means the API rejected the id's shape: for a visitor, a link to nothing, like 404.
  if (failure.statusCode === 404 || failure.statusCode === 400) return giftNotFound();
  return new HttpError(failure.statusCode, failure.message);
}
