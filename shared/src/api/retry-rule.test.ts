import { HttpError } from '../http-error';
import { toApiFailure, loadFailureToThrow } from './api-failure';
import { ApiError } from './client';
import { isRetryable, MAX_AUTOMATIC_RETRIES, MAX_RETRY_AFTER_MS, retryDelay, shouldRetry } from './retry-rule';

const network = () => new ApiError(503, 'The service could not be reached. Check your connection and try again.');

describe('the retry rule', () => {
  it.each([429, 500, 502, 503, 504])('retries %i', (status) => {
    expect(isRetryable(new ApiError(status, 'x'))).toBe(true);
    expect(shouldRetry(0, new ApiError(status, 'x'))).toBe(true);
  });

  it('offers a 408 or a client timeout to the visitor to try again, but does not wait through it again by itself', () => {
    expect(isRetryable(new ApiError(408, 'x'))).toBe(true);
    expect(shouldRetry(0, new ApiError(408, 'x'))).toBe(false);
    const timedOut = new ApiError(503, 'The service could not be reached.', { timedOut: true });
    expect(isRetryable(timedOut)).toBe(true);
    expect(shouldRetry(0, timedOut)).toBe(false);
  });

  it.each([400, 401, 403, 404, 409, 410, 413, 422])('does not retry %i', (status) => {
    expect(isRetryable(new ApiError(status, 'x'))).toBe(false);
    expect(shouldRetry(0, new ApiError(status, 'x'))).toBe(false);
  });

  it('retries a network failure, which the clients report as 503', () => {
    expect(shouldRetry(0, network())).toBe(true);
  });

  it('judges any HttpError by its status, not only the API client’s', () => {
    expect(isRetryable(new HttpError(502, 'The page arrived damaged.'))).toBe(true);
    expect(isRetryable(new HttpError(404, 'The page’s text was not found.'))).toBe(false);
  });

  it('does not retry what carries no status: a bug stays a bug', () => {
    expect(isRetryable(new TypeError('x is undefined'))).toBe(false);
    expect(isRetryable('boom')).toBe(false);
    expect(shouldRetry(0, new Error('boom'))).toBe(false);
  });

  it(`stops after ${MAX_AUTOMATIC_RETRIES} retries`, () => {
    const attempts = Array.from({ length: 5 }, (_, failureCount) => shouldRetry(failureCount, network()));
    expect(attempts).toEqual([true, true, false, false, false]);
  });

  it('waits 500 ms, then 1 s, without Retry-After', () => {
    expect([0, 1].map((failureCount) => retryDelay(failureCount, network()))).toEqual([500, 1000]);
  });

  it('waits as long as Retry-After says, when that is short', () => {
    const busy = new ApiError(503, 'Busy', { retryAfterSeconds: 3 });
    expect(shouldRetry(0, busy)).toBe(true);
    expect(retryDelay(0, busy)).toBe(3000);
  });

  it('leaves a long Retry-After to the visitor: no automatic retry', () => {
    const limited = new ApiError(429, 'Too many requests', { retryAfterSeconds: MAX_RETRY_AFTER_MS / 1000 + 1 });
    expect(shouldRetry(0, limited)).toBe(false);
    expect(isRetryable(limited)).toBe(true);
  });

  it('is the API client’s `retryable` too', () => {
    expect([400, 404, 408, 409, 410, 429, 500, 503].map((status) => new ApiError(status, 'x').retryable)).toEqual([
      false,
      false,
      true,
      false,
      false,
      true,
      true,
      true,
    ]);
  });
});

describe('toApiFailure', () => {
  it('keeps the status, message, retryability and Retry-After', () => {
    expect(toApiFailure(new ApiError(429, 'Too many plays today.', { retryAfterSeconds: 120 }))).toEqual({
      statusCode: 429,
      message: 'Too many plays today.',
      retryable: true,
      retryAfterSeconds: 120,
    });
    expect(toApiFailure(new ApiError(404, 'No gift with this id.'))).toEqual({
      statusCode: 404,
      message: 'No gift with this id.',
      retryable: false,
    });
  });

  it('makes a thrown bug a 500 that is not worth retrying', () => {
    expect(toApiFailure(new TypeError('x is undefined'))).toEqual({
      statusCode: 500,
      message: 'x is undefined',
      retryable: false,
    });
  });
});

describe('loadFailureToThrow', () => {
  const notFound = () => new HttpError(404, 'This thing does not exist.');

  it.each([408, 429, 500, 503])('keeps a retryable %i on the page', (status) => {
    expect(loadFailureToThrow(toApiFailure(new ApiError(status, 'x')), notFound)).toBeUndefined();
  });

  it.each([400, 404])('turns %i into the page’s own not-found error', (status) => {
    expect(loadFailureToThrow(toApiFailure(new ApiError(status, 'x')), notFound)?.toJSON()).toEqual(
      notFound().toJSON(),
    );
  });

  it('throws any other refusal with its status and message', () => {
    expect(loadFailureToThrow(toApiFailure(new ApiError(403, 'Not yours.')), notFound)?.toJSON()).toEqual({
      statusCode: 403,
      statusMessage: 'Forbidden',
      message: 'Not yours.',
    });
  });
});
