/** @jest-environment node */
import { CHROMIUM_ARGS, chromiumPathOf, DEFAULT_CHROMIUM_PATH, reactDevtoolsHook } from './chromium';

describe('chromiumPathOf', () => {
  it("takes CHROMIUM_PATH, else Debian's binary", () => {
    expect(chromiumPathOf({})).toBe(DEFAULT_CHROMIUM_PATH);
    expect(chromiumPathOf({ CHROMIUM_PATH: '/opt/chromium' })).toBe('/opt/chromium');
  });

  it.each(['E2E_CHROMIUM_PATH', 'BENCH_CHROMIUM_PATH', 'GATE_CHROMIUM_PATH'])(
    'refuses %s, naming CHROMIUM_PATH, rather than pick a binary by it unseen',
    (old) => {
      expect(() => chromiumPathOf({ [old]: '/opt/chromium', CHROMIUM_PATH: '/usr/bin/chromium' })).toThrow(
        `${old} is renamed CHROMIUM_PATH: set CHROMIUM_PATH=/opt/chromium instead`,
      );
    },
  );
});

it('runs Chromium without QUIC for every tool, the gate included', () => {
  expect(CHROMIUM_ARGS).toContain('--disable-quic');
  expect(CHROMIUM_ARGS).not.toContain('--no-sandbox');
});

describe('reactDevtoolsHook', () => {
  type Hook = { renderers: Map<number, unknown>; inject: (renderer: unknown) => number; onCommitFiberRoot: () => void };

  function install(script: string, scope: Record<string, unknown> = {}): Hook {
    const window = {} as { __REACT_DEVTOOLS_GLOBAL_HOOK__?: Hook };
    new Function('window', ...Object.keys(scope), script)(window, ...Object.values(scope));
    return window.__REACT_DEVTOOLS_GLOBAL_HOOK__ as Hook;
  }

  it('counts the renderers that registered', () => {
    const hook = install(reactDevtoolsHook());
    expect(hook.inject({})).toBe(1);
    expect(hook.inject({})).toBe(2);
    expect(hook.renderers.size).toBe(2);
  });

  it('runs what it is given at each commit', () => {
    const gate = { commits: 0 };
    const hook = install(reactDevtoolsHook('gate.commits += 1;'), { gate });
    hook.onCommitFiberRoot();
    hook.onCommitFiberRoot();
    expect(gate.commits).toBe(2);
  });
});
