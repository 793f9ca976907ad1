/**
 * This remote's one spec: its exposed modules, their routes and its port. The host shows its
 * routes at the paths an operator grants (see docs/adding-a-remote.md).
 */
import type { RemoteSpec } from 'shared/remotes';

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
