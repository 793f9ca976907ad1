import { hostnameOfHost, isValidHost, parseHostHeader } from './host-header';

const name = (labels: number, length: number) => Array.from({ length: labels }, () => 'a'.repeat(length)).join('.');

describe('parseHostHeader', () => {
  it.each([
    ['localhost:3004', 'localhost', 3004],
    ['127.0.0.2:3004', '127.0.0.2', 3004],
    ['Gifts.Example.COM', 'gifts.example.com', undefined],
    ['[::1]:3004', '[::1]', 3004],
    ['a_b.local', 'a_b.local', undefined],
    ['gift_box_host:4000', 'gift_box_host', 4000],
    ['example.com.:443', 'example.com.', 443],
    [`${name(3, 63)}.${'b'.repeat(61)}`, `${name(3, 63)}.${'b'.repeat(61)}`, undefined],
  ])('%p names %p, port %p', (host, hostname, port) => {
    expect(parseHostHeader(host)).toEqual({ hostname, port });
  });

  it.each([
    ['none', undefined],
    ['an empty header', ''],
    ['a path', 'evil.example/x@localhost:3004'],
    ['user information', 'user@evil.test:3000'],
    ['a space', 'a b:1'],
    ['two ports', 'localhost:3004:1'],
    ['an empty label', 'evil..test:3000'],
    ['a port past 65535', 'localhost:65536'],
    ['a port that is not a number', 'evil.test:http'],
    ['an unclosed IPv6 address', '[::1:3000'],
    ['percent-encoding', 'ev%69l.test'],
    ['a sub-delim', 'evil!.test'],
    ['a hostname of 254 characters', `${name(1, 254)}:3000`],
    ['a label of 64 characters', `${'a'.repeat(64)}.test:3000`],
    ['a hostname of 8 kB', name(2, 8 * 1024)],
  ])('refuses %s', (_, host) => {
    expect(parseHostHeader(host)).toBeUndefined();
    expect(hostnameOfHost(host)).toBeUndefined();
  });
});

describe('isValidHost', () => {
  it('admits a request without a Host header (HTTP/1.0) and one naming a host', () => {
    expect(isValidHost(undefined)).toBe(true);
    expect(isValidHost('a_b.local')).toBe(true);
  });

  it('refuses exactly what the parser refuses, so a host answered is a host the rest can read', () => {
    for (const host of ['', 'a b', 'evil.test/x', `${'a'.repeat(64)}.test`]) {
      expect(isValidHost(host)).toBe(false);
      expect(hostnameOfHost(host)).toBeUndefined();
    }
    expect(hostnameOfHost('a_b.local')).toBe('a_b.local');
  });
});
