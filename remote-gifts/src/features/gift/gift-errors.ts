/** The gift page's failures that end on the host's error page rather than inside the page. */
import { formatDate } from 'shared/format';
import { HttpError } from 'shared/http-error';

export const GIFT_NOT_FOUND = 'This gift does not exist. Check the link you were sent.';

export function giftNotFound(): HttpError {
  return new HttpError(404, GIFT_NOT_FOUND);
}

/** An expired gift is gone: the host's error page says so with 410 and the day it expired. */
export function giftExpired(expiresAt: string): HttpError {
  return new HttpError(410, `This gift expired on ${formatDate(expiresAt)} and can no longer be redeemed.`);
}
