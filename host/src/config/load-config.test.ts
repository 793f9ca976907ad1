import { everyRemote } from 'shared/testing/runtime-config';
import { loadRuntimeConfig } from './load-config';

const VALID = {
  // Each remote's server on this machine, at its port.
  remotes: everyRemote(),
  apiBaseUrl: 'http://localhost:3004',
};

const answer = (body: string, status = 200) => Promise.resolve(new Response(body, { status }));

describe('loading the runtime configuration', () => {
  it('parses a valid configuration and fills defaults', async () => {
    await expect(loadRuntimeConfig(answer(JSON.stringify(VALID)))).resolves.toEqual({
      ...VALID,
      buildCheckIntervalMs: 3_600_000,
      remoteTimeoutMs: 10_000,
    });
  });

  it('names the key that is wrong', async () => {
    const bad = { ...VALID, remotes: { ...VALID.remotes, redeem: 'not a url' } };
    await expect(loadRuntimeConfig(answer(JSON.stringify(bad)))).rejects.toThrow('"remotes.redeem"');
  });

  it('says when the file is missing, unreadable or unreachable', async () => {
    await expect(loadRuntimeConfig(answer('nope', 404))).rejects.toThrow(
      'The runtime configuration /config.json answered HTTP 404',
    );
    await expect(loadRuntimeConfig(answer('{"remotes":'))).rejects.toThrow('/config.json is not valid JSON');
    await expect(loadRuntimeConfig(Promise.reject(new TypeError('Failed to fetch')))).rejects.toThrow(
      '/config.json could not be fetched',
    );
  });
});
