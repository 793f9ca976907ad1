import { standaloneApiBaseUrl } from './standalone-api';

const at = (href: string) => new URL(href);

describe('standaloneApiBaseUrl', () => {
  it('is the API port it was built with, on the hostname the shell was opened at', () => {
    expect(standaloneApiBaseUrl(at('http://localhost:3001/game'), 3004)).toBe('http://localhost:3004');
    expect(standaloneApiBaseUrl(at('http://127.0.0.1:7101/game'), 7104)).toBe('http://127.0.0.1:7104');
    expect(standaloneApiBaseUrl(at('http://192.168.1.20:3001/'), 4004)).toBe('http://192.168.1.20:4004');
    expect(standaloneApiBaseUrl(at('http://[::1]:3001/'), 3004)).toBe('http://[::1]:3004');
  });

  it('is the api parameter of the address when there is one', () => {
    const api = encodeURIComponent('http://127.0.0.1:9004');
    expect(standaloneApiBaseUrl(at(`http://localhost:3001/game?api=${api}`), 3004)).toBe('http://127.0.0.1:9004');
  });
});
