/**
 * How every tool of ours runs Chromium, the production gate as well as the browser tests and the
 * bench: Debian's binary unless CHROMIUM_PATH names another, the flags of a headless run on a
 * server, and the React devtools hook the pages are watched through.
 */

export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';
export const CHROMIUM_PATH_ENV = 'CHROMIUM_PATH';
/** Names CHROMIUM_PATH replaces: one set is refused, so that it cannot pick another binary unseen. */
const RENAMED = ['E2E_CHROMIUM_PATH', 'BENCH_CHROMIUM_PATH', 'GATE_CHROMIUM_PATH'] as const;

/** The Chromium binary `env` names; throws when it sets a name CHROMIUM_PATH replaced. */
export function chromiumPathOf(env: Readonly<Record<string, string | undefined>>): string {
  const old = RENAMED.find((name) => env[name] !== undefined);
  if (old) throw new Error(`${old} is renamed ${CHROMIUM_PATH_ENV}: set ${CHROMIUM_PATH_ENV}=${env[old]} instead`);
  return env[CHROMIUM_PATH_ENV] || DEFAULT_CHROMIUM_PATH;
}

/**
 * No GPU, no QUIC, no background traffic: what a run measures or checks is the page's own
 * requests. A caller that needs more adds its own after these.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * A page script that installs, before any other, the minimal devtools hook React looks for, so
 * that the renderers that registered can be counted (a second copy of react-dom registers a
 * second one); `onCommit` is the body of its onCommitFiberRoot. A string, not a function, so no
 * transpiler helper (such as esbuild's `__name`) leaks into the page.
 */
export function reactDevtoolsHook(onCommit = ''): string {
  return `(() => {
  const renderers = new Map();
  let nextId = 1;
  const noop = () => undefined;
  Object.defineProperty(window, '__REACT_DEVTOOLS_GLOBAL_HOOK__', {
    configurable: true,
    value: {
      supportsFiber: true,
      renderers,
      inject: (renderer) => {
        const id = nextId++;
        renderers.set(id, renderer);
        return id;
      },
      onCommitFiberRoot: () => { ${onCommit} },
      onCommitFiberUnmount: noop,
      onPostCommitFiberRoot: noop,
      checkDCE: noop,
    },
  });
})();`;
}
