/**
 * One part's production webpack config with the TypeScript loader the loader comparison asks
 * for (bench/src/loaders.ts runs it, one webpack-cli process per part and loader):
 *
 *   LOADERS_PART=host LOADERS_LOADER=esbuild-loader LOADERS_OUT=… webpack --config bench/src/loader-config.ts --mode production
 *
 * `ts-loader` is the part's own config as `npm run build` builds it (webpack.config.base.ts's
 * rule); `esbuild-loader` is that config with esbuild-loader's rule in its place, as the base had
 * it until docs/decisions/0024-typescript-loader.md. Nothing else changes but where the build
 * goes: its output and its webpack cache are in LOADERS_OUT (emptied by the runner before each
 * build, so the cache is cold), and the part's dist/ and cache are left alone.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Configuration, RuleSetRule } from 'webpack';
import { BROWSER_TARGET } from '../../webpack.config.base';
import { LOADERS, type Loader } from './loader-runs';
import { ROOT_DIR } from './paths';

type Argv = { mode?: Configuration['mode'] };
type ConfigFunction = (env: unknown, argv: Argv) => Configuration;

/** esbuild-loader as the base used it: esbuild's transpile, the same target and JSX runtime. */
function esbuildRule(dir: string): RuleSetRule {
  return {
    test: /\.tsx?$/,
    loader: 'esbuild-loader',
    options: { target: BROWSER_TARGET, jsx: 'automatic', tsconfig: join(dir, 'tsconfig.json') },
  };
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: bench/src/loaders.ts runs this config`);
  return value;
}

function isLoader(value: string): value is Loader {
  return (LOADERS as readonly string[]).includes(value);
}

/** The config's one rule for TypeScript, which must be ts-loader's: what the comparison measures. */
function typescriptRuleIndex(rules: NonNullable<Configuration['module']>['rules'] = []): number {
  const indexes = rules.flatMap((rule, index) =>
    typeof rule === 'object' && rule && rule.test instanceof RegExp && rule.test.test('page.tsx') && !rule.enforce
      ? [index]
      : [],
  );
  const [index] = indexes;
  const rule = index === undefined ? undefined : rules[index];
  if (indexes.length !== 1 || typeof rule !== 'object' || !rule || rule.loader !== 'ts-loader') {
    throw new Error('webpack.config.base.ts no longer has one ts-loader rule for .tsx?: the comparison needs updating');
  }
  return index as number;
}

export default (env: unknown, argv: Argv): Configuration => {
  const part = required('LOADERS_PART');
  const loader = required('LOADERS_LOADER');
  const out = required('LOADERS_OUT');
  if (!isLoader(loader)) throw new Error(`LOADERS_LOADER is one of ${LOADERS.join(', ')}, got "${loader}"`);
  const dir = join(ROOT_DIR, part);
  const load = createRequire(__filename);
  const { default: partConfig } = load(join(dir, 'webpack.config.ts')) as { default: ConfigFunction };
  const config = partConfig(env, { ...argv, mode: 'production' });
  const rules = [...(config.module?.rules ?? [])];
  const index = typescriptRuleIndex(rules);
  if (loader === 'esbuild-loader') rules[index] = esbuildRule(dir);
  const cache = config.cache;
  if (typeof cache !== 'object' || cache.type !== 'filesystem')
    throw new Error('the base no longer has a filesystem cache');
  return {
    ...config,
    cache: { ...cache, cacheDirectory: join(out, 'cache') },
    output: { ...config.output, path: join(out, 'dist') },
    module: { ...config.module, rules },
  };
};
