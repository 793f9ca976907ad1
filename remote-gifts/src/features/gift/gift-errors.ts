/**
 * The gift page's failures that end on the host's error page rather than inside the page. An
 * expired gift is none: its page says so (gift-expired.tsx).
 */
import { HttpError } from 'shared/http-error';

export const GIFT_NOT_FOUND = 'This gift does not exist. Check the link you were sent.';

export function giftNotFound(): HttpError {
  return new HttpError(404, GIFT_NOT_FOUND);
}
