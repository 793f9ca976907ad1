import { blockedLabel, blockedOf, directiveLabel } from './csp-labels';

const known = (origin: string) => ['https://gifts.example.com', 'https://cdn.example.com'].includes(origin);

describe('directiveLabel', () => {
  it.each([
    ['script-src-elem', 'script-src-elem'],
    ["script-src 'self' https://cdn.example.com", 'script-src'],
    ['IMG-SRC', 'img-src'],
    ['navigate-to', 'other'],
    ['', 'other'],
  ])('%j is %s', (directive, label) => {
    expect(directiveLabel(directive)).toBe(label);
  });
});

describe('blockedLabel', () => {
  it.each([
    ['https://cdn.example.com/builds/b1/remoteEntry.js', 'https://cdn.example.com'],
    ['https://gifts.example.com', 'https://gifts.example.com'],
    ['https://evil.example/x.js', 'other'],
    ['inline', 'inline'],
    ['eval', 'eval'],
    ['data:image/png;base64,AAAA', 'data'],
    ['blob:https://gifts.example.com/1234', 'blob'],
    ['chrome-extension://abcdef/script.js', 'other'],
    ['', 'other'],
    ['not a url', 'other'],
  ])('%j is %s', (blocked, label) => {
    expect(blockedLabel(blocked, known)).toBe(label);
  });

  it('shows an operator the origin of anything else that was blocked, never its path', () => {
    expect(blockedOf('https://evil.example/steal?code=ABCD')).toBe('https://evil.example');
  });
});
