/**
 * This remote's spec, its one source: the modules it exposes and the routes that show them, which
 * its build checks against `src/exposed/` and publishes in its `mf-manifest.json` for the host and
 * the API to read, and its port. The registry of the repository's own remotes does not name it:
 * it is built and deployed on its own, and the host shows its routes at the paths an operator
 * grants it (`REMOTE___NAME___PATHS`: see `docs/adding-a-remote.md`).
 */
import type { RemoteSpec } from 'shared/remotes';

/** Its federation name: the host loads it as `__name__`; its variables are `REMOTE___NAME___…`. */
export const REMOTE_NAME = '__name__';

export const REMOTE_SPEC = {
  packageDir: 'remote-__name__',
  port: __port__,
  portEnv: 'REMOTE___NAME___PORT',
  urlEnv: 'REMOTE___NAME___URL',
  exposes: {
    __Page__: {
      file: './src/exposed/__page__.tsx',
      routes: [{ path: '__path__', layout: 'default', title: '__Name__', prerendered: true }],
    },
  },
} as const satisfies RemoteSpec;
