/** @jest-environment node */
import { createHash } from 'node:crypto';
import { loadRenderer } from './remote-renderers';

const integrityOf = (code: string) => `sha384-${createHash('sha384').update(code).digest('base64')}`;

/** A bundle as the prerender plugin writes one: CommonJS, exporting `render`. */
const ECHO = `module.exports.render = (request) => ({ html: '<p>' + request.pathname + '</p>', state: { queries: request.queries } });`;

describe('a remote render bundle', () => {
  it('renders when its bytes have the digest its manifest gives', () => {
    const render = loadRenderer(ECHO, integrityOf(ECHO));
    const queries = [{ queryKey: ['api', 'gifts', 'g1'], data: { giftId: 'g1' } }];
    expect(render({ module: 'GiftPage', pathname: '/gifts/g1', queries })).toEqual({
      html: '<p>/gifts/g1</p>',
      state: { queries },
    });
  });

  it('is refused when its bytes differ from the digest, or when there is no digest', () => {
    expect(() => loadRenderer(`${ECHO} `, integrityOf(ECHO))).toThrow('do not match the digest');
    expect(() => loadRenderer(ECHO, undefined)).toThrow('gives no digest');
  });

  it('is refused when it throws while loading or exports no render', () => {
    const throwing = 'throw new Error("broken build")';
    expect(() => loadRenderer(throwing, integrityOf(throwing))).toThrow('broken build');
    const empty = 'module.exports.other = 1';
    expect(() => loadRenderer(empty, integrityOf(empty))).toThrow('exports no render function');
  });

  it('runs with nothing of Node: no require, no process, no fetch', () => {
    const probe = `module.exports.render = () => ({ html: [typeof require, typeof process, typeof fetch, typeof setTimeout].join(), state: {} });`;
    const render = loadRenderer(probe, integrityOf(probe));
    expect(render({ module: 'GiftPage', pathname: '/', queries: [] }).html).toBe(
      'undefined,undefined,undefined,undefined',
    );
  });

  it('throws when a render throws, answers nonsense or never ends', () => {
    const cases = [
      'module.exports.render = () => { throw new Error("no such page"); }',
      'module.exports.render = () => ({ html: 42 })',
      'module.exports.render = () => { for (;;) {} }',
    ];
    for (const code of cases) {
      const render = loadRenderer(code, integrityOf(code));
      expect(() => render({ module: 'GiftPage', pathname: '/', queries: [] })).toThrow();
    }
  });
});
