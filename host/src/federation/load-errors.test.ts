import { HttpError } from 'shared/http-error';
import { isLoadFailure, RemoteLoadError, RemoteTimeoutError } from './load-errors';

function named(name: string, message: string): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}

describe('load failures', () => {
  it.each([
    ['webpack chunk', named('ChunkLoadError', 'Loading chunk 227 failed.\n(error: http://localhost:3003/227.js)')],
    ['css chunk', new Error('Loading CSS chunk 12 failed.')],
    ['manifest', new Error('[ Federation Runtime ]: RUNTIME-003 Failed to get manifest.')],
    ['remote entry', new Error('[ Federation Runtime ]: RUNTIME-008 Failed to load script resources.')],
    ['script network', named('ScriptNetworkError', 'Failed to load script')],
    ['timeout', new RemoteTimeoutError('gifts', 'GamePage', 10)],
    ['fetch', new TypeError('Failed to fetch')],
  ])('recognises a %s failure', (_what, error) => {
    expect(isLoadFailure(error)).toBe(true);
  });

  it.each([
    ['render bug', new TypeError("Cannot read properties of undefined (reading 'x')")],
    ['http error', new HttpError(404, 'Gift not found')],
    ['string', 'boom'],
    ['nothing', undefined],
  ])('does not mistake a %s for one', (_what, error) => {
    expect(isLoadFailure(error)).toBe(false);
  });

  it('names the remote and module, without the runtime documentation links', () => {
    const error = new RemoteLoadError(
      'gifts',
      'GiftPage',
      new Error('[ Federation Runtime ]: RUNTIME-008 Failed to load script resources. #View the docs to see how to solve: https://module-federation.io/guide/troubleshooting/runtime/RUNTIME-008\n args: {}'),
    );
    expect(error.statusCode).toBe(500);
    expect(error.message).toBe('The gifts remote could not load GiftPage: [ Federation Runtime ]: RUNTIME-008 Failed to load script resources.');
    expect(isLoadFailure(error)).toBe(true);
  });
});
