import { parseRuntimeConfig, RemoteOriginError } from 'shared/runtime-config';
import { everyRemote } from 'shared/testing/runtime-config';
import type { ConfigRequest } from './fetch-config';
import { loadRuntimeConfig, loadSchemaParser, type ConfigParser } from './load-config';

const VALID = {
  // Each remote's server on this machine, at its port.
  remotes: everyRemote(),
  apiBaseUrl: 'http://localhost:3004',
};

/** `/config.json`'s answer, fetched (the development server's page). */
const fetched = (body: string, status = 200): ConfigRequest => ({
  response: Promise.resolve(new Response(body, { status })),
  inPage: false,
});

/** The configuration the host's server wrote into the page. */
const inPage = (body: string): ConfigRequest => ({ response: Promise.resolve(new Response(body)), inPage: true });

describe('loading the runtime configuration', () => {
  it('parses a fetched configuration and fills defaults', async () => {
    await expect(loadRuntimeConfig(fetched(JSON.stringify(VALID)))).resolves.toEqual({
      ...VALID,
      buildCheckIntervalMs: 3_600_000,
      remoteTimeoutMs: 10_000,
    });
  });

  it('names the key that is wrong', async () => {
    const bad = { ...VALID, remotes: { ...VALID.remotes, redeem: 'not a url' } };
    await expect(loadRuntimeConfig(fetched(JSON.stringify(bad)))).rejects.toThrow('"remotes.redeem"');
  });

  it('says when the file is missing, unreadable or unreachable', async () => {
    await expect(loadRuntimeConfig(fetched('nope', 404))).rejects.toThrow(
      'The runtime configuration /config.json answered HTTP 404',
    );
    await expect(loadRuntimeConfig(fetched('{"remotes":'))).rejects.toThrow('/config.json is not valid JSON');
    const unreachable = { response: Promise.reject(new TypeError('Failed to fetch')), inPage: false };
    await expect(loadRuntimeConfig(unreachable)).rejects.toThrow('/config.json could not be fetched');
  });

  it('asks for the schema as soon as it asks for the configuration, not after its answer', async () => {
    let answer: (response: Response) => void = () => undefined;
    const request = { response: new Promise<Response>((resolve) => (answer = resolve)), inPage: false };
    const schemaParser = jest.fn(loadSchemaParser);
    const loaded = loadRuntimeConfig(request, schemaParser);
    expect(schemaParser).toHaveBeenCalledTimes(1);
    answer(new Response(JSON.stringify(VALID)));
    await expect(loaded).resolves.toMatchObject(VALID);
  });

  it('says so when the schema cannot be loaded', async () => {
    const unavailable = () => Promise.reject(new Error('Loading chunk 499 failed'));
    await expect(loadRuntimeConfig(fetched(JSON.stringify(VALID)), unavailable)).rejects.toThrow(
      "The runtime configuration's checks could not be loaded",
    );
  });
});

describe('the configuration the host server wrote into the page', () => {
  // What the server writes: its own parse of the configuration, defaults filled.
  const written = parseRuntimeConfig(VALID);

  it('is taken as the server parsed it, without loading the schema', async () => {
    const schemaParser = jest.fn<Promise<ConfigParser>, []>(loadSchemaParser);
    await expect(loadRuntimeConfig(inPage(JSON.stringify(written)), schemaParser)).resolves.toEqual(written);
    expect(schemaParser).not.toHaveBeenCalled();
  });

  it('still has its remote origins checked: no code from an address the configuration does not allow', async () => {
    const elsewhere = { ...written, remoteOrigins: ['http://localhost:3001'] };
    const loading = loadRuntimeConfig(inPage(JSON.stringify(elsewhere)));
    await expect(loading).rejects.toBeInstanceOf(RemoteOriginError);
    await expect(loading).rejects.toThrow('"remotes.redeem"');
  });

  it('must be an object with remotes', async () => {
    await expect(loadRuntimeConfig(inPage('[]'))).rejects.toThrow('the configuration must be a JSON object');
    await expect(loadRuntimeConfig(inPage('{}'))).rejects.toThrow('"remotes" is missing');
  });
});
