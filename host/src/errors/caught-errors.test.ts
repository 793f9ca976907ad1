import { HttpError } from 'shared/http-error';
import { isExpectedError, logExpectedError, onCaughtError } from './caught-errors';

afterEach(() => jest.restoreAllMocks());

describe('errors an error page caught', () => {
  it('leaves an expected 4xx to the error page: no stack in the console', () => {
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    onCaughtError(new HttpError(404, 'This gift does not exist.'), { componentStack: '\n    at GiftScreen' });
    expect(error).not.toHaveBeenCalled();
    expect(isExpectedError(new HttpError(410, 'Gone'))).toBe(true);
  });

  it('logs a failure with its component stack, as React would', () => {
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const broken = new Error('the page broke');
    onCaughtError(broken, { componentStack: '\n    at GiftScreen' });
    expect(error).toHaveBeenCalledWith(broken, '\nThe error occurred in:\n    at GiftScreen');
    expect(isExpectedError(broken)).toBe(false);
    expect(isExpectedError(new HttpError(503, 'Down'))).toBe(false);
  });

  it('gives an expected error one line: its status and message', () => {
    const info = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    logExpectedError(new HttpError(404, 'Page not found: /nope'));
    expect(info).toHaveBeenCalledTimes(1);
    expect(info).toHaveBeenCalledWith('[gift box] 404: Page not found: /nope');
  });
});
