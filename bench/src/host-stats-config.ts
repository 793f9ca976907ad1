/**
 * The host's production webpack config built into bench/.work/host-stats/ for its stats
 * (host-packages.ts); the host's own dist/ and cache are left alone.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Configuration } from 'webpack';
import { HOST_STATS_DIR, ROOT_DIR } from './paths';

type Argv = { mode?: Configuration['mode'] };
type ConfigFunction = (env: unknown, argv: Argv) => Configuration;

export default (env: unknown, argv: Argv): Configuration => {
  const load = createRequire(__filename);
  const { default: hostConfig } = load(join(ROOT_DIR, 'host', 'webpack.config.ts')) as { default: ConfigFunction };
  const config = hostConfig(env, { ...argv, mode: 'production' });
  const cache = config.cache;
  const { devServer: _devServer, ...rest } = config;
  return {
    ...rest,
    cache:
      typeof cache === 'object' && cache.type === 'filesystem'
        ? { ...cache, cacheDirectory: join(HOST_STATS_DIR, 'cache') }
        : cache,
    output: { ...config.output, path: join(HOST_STATS_DIR, 'dist') },
  };
};
