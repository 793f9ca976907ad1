import { HttpError } from 'shared/http-error';
import { isCodeLoadFailure, isLoadFailure, RemoteLoadError, RemoteTimeoutError } from './load-errors';

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

  it.each([
    [
      new Error(
        '[ Federation Runtime ]: RUNTIME-008 Failed to load script resources. #View the docs: https://module-federation.io/x\n args: {}',
      ),
      'The gifts remote could not load GiftPage: its entry script could not be loaded (RUNTIME-008).',
    ],
    [
      new Error(
        '[ Federation Runtime ]: Failed to get manifest. #RUNTIME-003\nargs: {"manifestUrl":"http://localhost:3001/mf-manifest.json"}',
      ),
      'The gifts remote could not load GiftPage: its manifest could not be fetched (RUNTIME-003).',
    ],
    [
      named('ChunkLoadError', 'Loading chunk 227 failed.\n(error: http://localhost:3001/227.9f8d9dbda19e10d8.js)'),
      'The gifts remote could not load GiftPage: a code chunk (http://localhost:3001/227.9f8d9dbda19e10d8.js) could not be loaded.',
    ],
    [
      new Error(
        '[ Federation Runtime ]: Failed to get manifest. #RUNTIME-003\nargs: {}\nOriginal Error Message:\n ' +
          'RemoteRefusedError: Refused https://cdn.evil.example/remoteEntry.js: https://cdn.evil.example is not an allowed remote origin (remoteOrigins)',
      ),
      'The gifts remote could not load GiftPage: the host refused https://cdn.evil.example/remoteEntry.js ' +
        '(https://cdn.evil.example is not an allowed remote origin (remoteOrigins)).',
    ],
    [
      new RemoteTimeoutError('gifts', 'GiftPage', 10000),
      'The gifts remote could not load GiftPage: loading gifts/GiftPage took longer than 10000 ms.',
    ],
  ])('names the remote, the module and the cause in plain words (%#)', (cause, message) => {
    const error = new RemoteLoadError('gifts', 'GiftPage', cause);
    expect(error.statusCode).toBe(500);
    expect(error.message).toBe(message);
    expect(isLoadFailure(error)).toBe(true);
  });
});

describe('code load failures seen while rendering', () => {
  it('counts webpack and federation download failures', () => {
    expect(isCodeLoadFailure(named('ChunkLoadError', 'Loading chunk 3 failed.'))).toBe(true);
    expect(isCodeLoadFailure(new Error('[ Federation Runtime ]: RUNTIME-008 Failed to load script resources.'))).toBe(
      true,
    );
  });

  it("does not count a page's own failed request or timeout", () => {
    expect(isCodeLoadFailure(new TypeError('Failed to fetch'))).toBe(false);
    expect(isCodeLoadFailure(new Error('The request timed out'))).toBe(false);
    expect(isCodeLoadFailure(new HttpError(503, 'The service could not be reached.'))).toBe(false);
  });
});
