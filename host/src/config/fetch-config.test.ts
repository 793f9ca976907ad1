import { RUNTIME_CONFIG_ELEMENT_ID } from 'shared/page-data';
import { CONFIG_URL, fetchRuntimeConfig } from './fetch-config';
import { loadRuntimeConfig } from './load-config';

const CONFIG = {
  remotes: {
    gifts: 'https://gifts.example.com/mf-manifest.json',
    redeem: 'https://redeem.example.com/mf-manifest.json',
    content: 'https://content.example.com/mf-manifest.json',
  },
  apiBaseUrl: 'https://api.example.com',
};

afterEach(() => document.getElementById(RUNTIME_CONFIG_ELEMENT_ID)?.remove());

describe('reading the runtime configuration', () => {
  it('reads the configuration written into the page, without a request', async () => {
    const element = document.createElement('script');
    element.type = 'application/json';
    element.id = RUNTIME_CONFIG_ELEMENT_ID;
    element.textContent = JSON.stringify(CONFIG);
    document.body.append(element);
    const fetchImpl = jest.fn<Promise<Response>, Parameters<typeof fetch>>();
    const config = await loadRuntimeConfig(fetchRuntimeConfig(fetchImpl));
    expect(config.apiBaseUrl).toBe('https://api.example.com');
    expect(fetchImpl).not.toHaveBeenCalled();
  });

  it('fetches /config.json, uncached, from a page without it (the development server)', async () => {
    const fetchImpl = jest.fn((_input: RequestInfo | URL, _init?: RequestInit) =>
      Promise.resolve(new Response(JSON.stringify(CONFIG))),
    );
    const config = await loadRuntimeConfig(fetchRuntimeConfig(fetchImpl));
    expect(config.remotes.gifts).toBe('https://gifts.example.com/mf-manifest.json');
    expect(fetchImpl).toHaveBeenCalledWith(CONFIG_URL, { cache: 'no-store' });
  });
});
