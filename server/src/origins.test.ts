import { anyHostnameOnPort, isAllowedOrigin } from './origins';

describe('isAllowedOrigin', () => {
  const dev = [anyHostnameOnPort(3000)];

  it('admits an exact origin whatever the request was sent to', () => {
    expect(isAllowedOrigin('https://gifts.example.com', ['https://gifts.example.com'], 'api.example.com')).toBe(true);
    expect(isAllowedOrigin('https://other.example.com', ['https://gifts.example.com'], 'api.example.com')).toBe(false);
  });

  it('admits, by the pattern, the host port on the hostname the request was sent to', () => {
    expect(isAllowedOrigin('http://localhost:3000', dev, 'localhost:3004')).toBe(true);
    expect(isAllowedOrigin('http://127.0.0.2:3000', dev, '127.0.0.2:3004')).toBe(true);
    expect(isAllowedOrigin('http://192.168.1.20:3000', dev, '192.168.1.20:3003')).toBe(true);
    expect(isAllowedOrigin('http://gift_box_host:3000', dev, 'gift_box_host:3003')).toBe(true);
  });

  it('refuses, by the pattern, a page on another hostname, another port or without a Host', () => {
    expect(isAllowedOrigin('http://evil.example:3000', dev, '127.0.0.1:3004')).toBe(false);
    expect(isAllowedOrigin('http://127.0.0.2:3000', dev, '127.0.0.1:3004')).toBe(false);
    expect(isAllowedOrigin('http://127.0.0.1:3999', dev, '127.0.0.1:3004')).toBe(false);
    expect(isAllowedOrigin('http://127.0.0.1:3000', dev, undefined)).toBe(false);
    expect(isAllowedOrigin('null', dev, '127.0.0.1:3004')).toBe(false);
  });
});
