import { RUNTIME_CONFIG_ELEMENT_ID } from 'shared/page-data';
import { CONFIG_URL } from './config-url';
import { readRuntimeConfig } from './fetch-config';
import * as loadConfig from './load-config';

const CONFIG = {
  remotes: {
    gifts: 'https://gifts.example.com/mf-manifest.json',
    redeem: 'https://redeem.example.com/mf-manifest.json',
    content: 'https://content.example.com/mf-manifest.json',
  },
  apiBaseUrl: 'https://api.example.com',
};

afterEach(() => document.getElementById(RUNTIME_CONFIG_ELEMENT_ID)?.remove());

function writeIntoPage(text: string): void {
  const element = document.createElement('script');
  element.type = 'application/json';
  element.id = RUNTIME_CONFIG_ELEMENT_ID;
  element.textContent = text;
  document.body.append(element);
}

describe('reading the runtime configuration', () => {
  it("takes the configuration the host's server wrote into the page as it is: no request, no schema's chunk", async () => {
    writeIntoPage(JSON.stringify(CONFIG));
    const fetchImpl = jest.fn<Promise<Response>, Parameters<typeof fetch>>();
    const check = jest.fn(async () => loadConfig);
    await expect(readRuntimeConfig(fetchImpl, document, check)).resolves.toEqual(CONFIG);
    expect(fetchImpl).not.toHaveBeenCalled();
    expect(check).not.toHaveBeenCalled();
  });

  it('refuses a configuration in the page that is not a JSON object, naming where it was', async () => {
    writeIntoPage('{"remotes":');
    await expect(readRuntimeConfig()).rejects.toThrow('The runtime configuration in the page is not valid JSON');
    document.getElementById(RUNTIME_CONFIG_ELEMENT_ID)?.remove();
    writeIntoPage('["remotes"]');
    await expect(readRuntimeConfig()).rejects.toThrow(
      'The runtime configuration in the page must be a JSON object with its remotes',
    );
  });

  it('refuses a configuration in the page whose remotes are outside its allowed origins, naming the remote', async () => {
    writeIntoPage(
      JSON.stringify({ ...CONFIG, remoteOrigins: ['https://redeem.example.com', 'https://content.example.com'] }),
    );
    await expect(readRuntimeConfig()).rejects.toThrow(
      '"remotes.gifts" https://gifts.example.com/mf-manifest.json is not at an allowed remote origin',
    );
  });

  it('fetches /config.json, uncached, from a page without it, and checks it with the schema it loads meanwhile', async () => {
    const fetchImpl = jest.fn((_input: RequestInfo | URL, _init?: RequestInit) =>
      Promise.resolve(new Response(JSON.stringify(CONFIG))),
    );
    const check = jest.fn(async () => loadConfig);
    const config = await readRuntimeConfig(fetchImpl, document, check);
    expect(config).toEqual({ ...CONFIG, buildCheckIntervalMs: 3_600_000, remoteTimeoutMs: 10_000 });
    expect(fetchImpl).toHaveBeenCalledWith(CONFIG_URL, { cache: 'no-store' });
    expect(check).toHaveBeenCalledTimes(1);
  });

  it('names the fetched file and its problem when the schema refuses it', async () => {
    const fetchImpl = () => Promise.resolve(new Response(JSON.stringify({ apiBaseUrl: 'https://api.example.com' })));
    await expect(readRuntimeConfig(fetchImpl, document, async () => loadConfig)).rejects.toThrow(
      /Invalid runtime configuration: "remotes" is missing/,
    );
  });
});
