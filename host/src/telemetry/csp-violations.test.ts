import type { CspEvent } from 'shared/telemetry';
import { blockedOf, directiveOf, watchCspViolations } from './csp-violations';

describe('what a CSP violation blocked', () => {
  it('is the origin of a URL, never its path, query or fragment', () => {
    expect(blockedOf('https://cdn.evil.example:8443/gifts/Zx9_-aBcDeFgHiJkLmNoPqRs?email=a@b.c#x')).toBe(
      'https://cdn.evil.example:8443',
    );
    expect(blockedOf('wss://chat.example.com/socket')).toBe('wss://chat.example.com');
  });

  it.each(['inline', 'eval', 'wasm-eval', 'data', 'blob', 'trusted-types-sink'])(
    'is the keyword %s as such',
    (word) => {
      expect(blockedOf(word)).toBe(word);
    },
  );

  it.each([
    '',
    'about',
    'data:text/html,<b>hi</b>',
    'javascript:alert(1)',
    'something else',
    'http://[::1]:3000/x.js',
    `https://${'a'.repeat(130)}.example/`,
  ])('is "other" for %p, which names no origin a label can hold', (value) => {
    expect(blockedOf(value)).toBe('other');
  });
});

describe('the directive a violation is labelled with', () => {
  it('is the effective directive, or "other" for one no label can hold', () => {
    expect(directiveOf('script-src-elem')).toBe('script-src-elem');
    expect(directiveOf('frame-ancestors')).toBe('frame-ancestors');
    expect(directiveOf('')).toBe('other');
    expect(directiveOf('script src')).toBe('other');
  });
});

describe('watching violations', () => {
  const violation = (effectiveDirective: string, blockedURI: string) =>
    Object.assign(new Event('securitypolicyviolation'), { effectiveDirective, blockedURI });

  it('reports each violation once per route, with the route on screen', () => {
    const target = new EventTarget() as unknown as Document;
    const events: CspEvent[] = [];
    let route = '/game';
    watchCspViolations(
      target,
      () => route,
      (event) => events.push(event),
    );

    for (let i = 0; i < 3; i += 1) target.dispatchEvent(violation('img-src', `https://tracker.example/p.gif?n=${i}`));
    target.dispatchEvent(violation('script-src', 'inline'));
    route = '/about';
    target.dispatchEvent(violation('img-src', 'https://tracker.example/p.gif'));

    expect(events).toEqual([
      { kind: 'csp', route: '/game', directive: 'img-src', blocked: 'https://tracker.example' },
      { kind: 'csp', route: '/game', directive: 'script-src', blocked: 'inline' },
      { kind: 'csp', route: '/about', directive: 'img-src', blocked: 'https://tracker.example' },
    ]);
  });
});
