/** @jest-environment node */
import { createHash } from 'node:crypto';
import { loadRenderer, RenderPools } from './remote-renderers';

const integrityOf = (code: string) => `sha384-${createHash('sha384').update(code).digest('base64')}`;

/** A bundle as the prerender plugin writes one: CommonJS, exporting `render`. */
const ECHO = `module.exports.render = (request) => ({ html: '<p>' + request.pathname + '</p>', state: { queries: request.queries } });`;
const REQUEST = { module: 'GiftPage', pathname: '/gifts/g1', queries: [] };

let pools: RenderPools;

beforeEach(() => {
  pools = new RenderPools({ size: 1, memoryMb: 64, timeoutMs: 2_000 });
});

afterEach(async () => {
  await pools.close();
});

const load = (code: string, integrity = integrityOf(code)) => loadRenderer(pools.pool('gifts'), code, integrity);

describe('a remote render bundle', () => {
  it('renders in a worker process when its bytes have the digest its manifest gives', async () => {
    const render = await load(ECHO);
    const queries = [{ queryKey: ['api', 'gifts', 'g1'], data: { giftId: 'g1' } }];
    await expect(render({ ...REQUEST, queries })).resolves.toEqual({ html: '<p>/gifts/g1</p>', state: { queries } });
  });

  it('is refused when its bytes differ from the digest, or when there is no digest', async () => {
    await expect(load(`${ECHO} `, integrityOf(ECHO))).rejects.toThrow('do not match the digest');
    await expect(loadRenderer(pools.pool('gifts'), ECHO, undefined)).rejects.toThrow('gives no digest');
  });

  it('is refused when it throws while loading or exports no render', async () => {
    await expect(load('throw new Error("broken build")')).rejects.toThrow('broken build');
    await expect(load('module.exports.other = 1')).rejects.toThrow('exports no render function');
  });

  it('runs with nothing of Node: no require, no process, no fetch, no timers', async () => {
    const probe = `module.exports.render = () => ({ html: [typeof require, typeof process, typeof fetch, typeof setTimeout].join(), state: {} });`;
    const render = await load(probe);
    await expect(render(REQUEST)).resolves.toMatchObject({ html: 'undefined,undefined,undefined,undefined' });
  });

  it('fails a render that throws, answers nonsense or never ends, and the next render is served', async () => {
    const render = await load(ECHO);
    for (const code of [
      'module.exports.render = () => { throw new Error("no such page"); }',
      'module.exports.render = () => ({ html: 42 })',
      'module.exports.render = () => { for (;;) {} }',
    ]) {
      const failing = await load(code);
      await expect(failing(REQUEST)).rejects.toThrow();
      await expect(render(REQUEST)).resolves.toMatchObject({ html: '<p>/gifts/g1</p>' });
    }
  });

  it('is served by a new worker once its worker has crashed', async () => {
    const render = await load(ECHO);
    const crashing = await load(
      'module.exports.render = () => { const kept = []; for (;;) kept.push(new Array(1e6).fill(1)); }',
    );
    await expect(crashing(REQUEST)).rejects.toThrow('the render worker stopped');
    await expect(render(REQUEST)).resolves.toMatchObject({ html: '<p>/gifts/g1</p>' });
  });

  it('still renders with a build after many newer builds were loaded (previews, canaries)', async () => {
    const render = await load(ECHO);
    for (let build = 0; build < 10; build += 1) {
      const other = await load(`module.exports.render = () => ({ html: 'build ${build}', state: {} });`);
      await expect(other(REQUEST)).resolves.toMatchObject({ html: `build ${build}` });
    }
    await expect(render(REQUEST)).resolves.toMatchObject({ html: '<p>/gifts/g1</p>' });
  });
});
