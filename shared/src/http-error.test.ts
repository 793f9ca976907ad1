/** @jest-environment node */
import { HttpError, errorMessage, isHttpError, reasonPhrase, toHttpError } from './http-error';

describe('HttpError', () => {
  it('carries the status code, the reason phrase and the message', () => {
    const error = new HttpError(404, 'Gift not found');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('HttpError');
    expect(error.statusCode).toBe(404);
    expect(error.statusMessage).toBe('Not Found');
    expect(error.message).toBe('Gift not found');
  });

  it('keeps an explicit status message', () => {
    expect(new HttpError(404, 'x', 'Page Not Found').statusMessage).toBe('Page Not Found');
  });

  it('serialises to exactly { statusCode, statusMessage, message }', () => {
    const error = new HttpError(409, 'Already redeemed');
    expect(error.toJSON()).toStrictEqual({ statusCode: 409, statusMessage: 'Conflict', message: 'Already redeemed' });
    expect(JSON.parse(JSON.stringify(error))).toStrictEqual({
      statusCode: 409,
      statusMessage: 'Conflict',
      message: 'Already redeemed',
    });
  });
});

describe('reasonPhrase', () => {
  it.each([
    [400, 'Bad Request'],
    [404, 'Not Found'],
    [500, 'Internal Server Error'],
    [503, 'Service Unavailable'],
  ])('names %i as %s', (status, phrase) => {
    expect(reasonPhrase(status)).toBe(phrase);
  });

  it('falls back to a generic phrase for unlisted statuses', () => {
    expect(reasonPhrase(599)).toBe('Internal Server Error');
    expect(reasonPhrase(418)).toBe('Error');
  });
});

describe('isHttpError', () => {
  it('accepts an HttpError instance', () => {
    expect(isHttpError(new HttpError(400, 'bad'))).toBe(true);
  });

  it('accepts a plain object thrown by another bundle copy of the module', () => {
    expect(isHttpError({ statusCode: 404, statusMessage: 'Not Found', message: 'gone' })).toBe(true);
    expect(isHttpError({ statusCode: 599, message: 'edge' })).toBe(true);
  });

  it.each([
    ['status 399', { statusCode: 399, message: 'x' }],
    ['status 600', { statusCode: 600, message: 'x' }],
    ['status 200', { statusCode: 200, message: 'x' }],
    ['a fractional status', { statusCode: 404.5, message: 'x' }],
    ['a string status', { statusCode: '404', message: 'x' }],
    ['no message', { statusCode: 404 }],
    ['a non-string message', { statusCode: 404, message: 42 }],
    ['a plain Error', new Error('x')],
    ['null', null],
    ['undefined', undefined],
    ['a string', 'Not Found'],
    ['a number', 404],
  ])('rejects %s', (_label, value) => {
    expect(isHttpError(value)).toBe(false);
  });
});

describe('errorMessage', () => {
  it('returns a string as is', () => {
    expect(errorMessage('boom')).toBe('boom');
  });

  it('returns the message of an Error', () => {
    expect(errorMessage(new TypeError('bad type'))).toBe('bad type');
  });

  it('returns a string message of any object', () => {
    expect(errorMessage({ message: 'from a plain object' })).toBe('from a plain object');
  });

  it.each([[null], [undefined], [42], [{ message: 7 }], [{}]])('says "Unknown error" for %p', (value) => {
    expect(errorMessage(value)).toBe('Unknown error');
  });
});

describe('toHttpError', () => {
  it('returns an HttpError unchanged', () => {
    const error = new HttpError(403, 'no');
    expect(toHttpError(error)).toBe(error);
  });

  it('rebuilds an HttpError-like object from another bundle, keeping its fields', () => {
    const result = toHttpError({ statusCode: 410, statusMessage: 'Expired', message: 'This gift has expired' });
    expect(result).toBeInstanceOf(HttpError);
    expect(result.toJSON()).toStrictEqual({
      statusCode: 410,
      statusMessage: 'Expired',
      message: 'This gift has expired',
    });
  });

  it('fills in the reason phrase when the HttpError-like object has none', () => {
    expect(toHttpError({ statusCode: 404, statusMessage: '', message: 'x' }).statusMessage).toBe('Not Found');
    expect(toHttpError({ statusCode: 429, message: 'x' }).statusMessage).toBe('Too Many Requests');
  });

  it('turns a string into a 500 with that message', () => {
    expect(toHttpError('kaput').toJSON()).toStrictEqual({
      statusCode: 500,
      statusMessage: 'Internal Server Error',
      message: 'kaput',
    });
  });

  it('turns an Error into a 500 with its message', () => {
    const result = toHttpError(new RangeError('out of range'));
    expect(result.statusCode).toBe(500);
    expect(result.message).toBe('out of range');
  });

  it('turns an object with an out-of-range status into a 500, keeping its message', () => {
    const result = toHttpError({ statusCode: 200, message: 'not an error status' });
    expect(result.statusCode).toBe(500);
    expect(result.message).toBe('not an error status');
  });

  it.each([[undefined], [null], [12], [Symbol('s')]])('turns %p into a 500 "Unknown error"', (value) => {
    const result = toHttpError(value);
    expect(result.statusCode).toBe(500);
    expect(result.message).toBe('Unknown error');
  });
});
