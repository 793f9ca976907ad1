import { HttpError } from 'shared/http-error';

export { HttpError };

export class TooManyRequestsError extends HttpError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, message);
    this.name = 'TooManyRequestsError';
  }
}

export const giftNotFound = () => new HttpError(404, 'Gift not found.');
export const redeemNotFound = () => new HttpError(404, 'Redeem session not found.');
export const giftAlreadyRedeemed = () => new HttpError(409, 'This gift has already been redeemed.');
export const giftExpired = () => new HttpError(410, 'This gift has expired.');
