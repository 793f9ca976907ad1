/** How every tool of ours runs Chromium: Debian's binary unless CHROMIUM_PATH, headless flags, the React hook. */

export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';
export const CHROMIUM_PATH_ENV = 'CHROMIUM_PATH';
/** One set is refused, so that it cannot pick another binary unseen. */
const RENAMED = ['E2E_CHROMIUM_PATH', 'BENCH_CHROMIUM_PATH', 'GATE_CHROMIUM_PATH'] as const;

/** CHROMIUM_PATH when set, else `fallback`. */
export function chromiumPathOf(
  env: Readonly<Record<string, string | undefined>>,
  fallback: string = DEFAULT_CHROMIUM_PATH,
): string {
  const old = RENAMED.find((name) => env[name] !== undefined);
  if (old) throw new Error(`${old} is renamed ${CHROMIUM_PATH_ENV}: set ${CHROMIUM_PATH_ENV}=${env[old]} instead`);
  return env[CHROMIUM_PATH_ENV] || fallback;
}

/** No GPU, no QUIC, no background traffic: a run sees only the page's own requests. */
export const CHROMIUM_ARGS: readonly string[] = [
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Counts the React renderers that register (a second react-dom registers a second). A string, so no
 * transpiler helper leaks into the page.
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
