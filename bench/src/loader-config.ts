/**
 * One part's production webpack config with the TypeScript loader the comparison asks for
 * (bench/src/loaders.ts runs it): ts-loader as `npm run build` has it, or esbuild-loader in its
 * place (docs/decisions/0024-typescript-loader.md). Output and cache go to LOADERS_OUT, cold.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Configuration, RuleSetRule } from 'webpack';
import { BROWSER_TARGET } from '../../webpack.config.base';
import { LOADERS, type Loader } from './loader-runs';
import { ROOT_DIR } from './paths';

type Argv = { mode?: Configuration['mode'] };
type ConfigFunction = (env: unknown, argv: Argv) => Configuration;

/** esbuild's transpile, the same target and JSX runtime. */
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
