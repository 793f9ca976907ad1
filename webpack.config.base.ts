/** The one webpack factory: what independently built parts must agree on. */
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { constants as zlibConstants, type BrotliOptions } from 'node:zlib';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import ReactRefreshPlugin from '@pmmmwh/react-refresh-webpack-plugin';
import CompressionPlugin from 'compression-webpack-plugin';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import type MinimizerPlugin from 'minimizer-webpack-plugin';
import webpack, { type Configuration } from 'webpack';
import type { Configuration as DevServerConfiguration } from 'webpack-dev-server';
import { readPort } from 'server/env';
import type { RemoteSpec } from 'shared/remotes';
import { BuildInfoPlugin } from './build/build-info-plugin';
import { codeVersionOf } from './scripts/build-stamp';
import { reloadOnOtherInputs, StandaloneDevClientsPlugin } from './build/dev-server';
import { RemoteIntegrityPlugin } from './build/integrity-plugin';
import { webpackMagicCommentsOnly } from './build/magic-comments';
import { MINIFY_CSS_LOADER } from './build/minify-css-loader';
import { pageHtml } from './build/page-template';
import { remoteExposes } from './build/remote-exposes';
import { publishedRoutesPlugin } from './build/published-routes-plugin';
import { SharedFallbacksPlugin } from './build/shared-fallbacks';
import {
  BUNDLER_RUNTIME_PROVIDER,
  ConsumeSharedCachePlugin,
  ContainerBundlerRuntimePlugin,
  StandaloneRuntimePlugin,
  TrimFederationRuntimePlugin,
} from './build/federation-plugins';

export interface FederatedAppOptions {
  name: string;
  dir: string;
  /** A remote with a `spec` may leave it out: its spec's, moved by its `portEnv`. */
  port?: number;
  /** Only a remote the registry does not name (docs/decisions/0049-a-remote-carries-its-own-spec.md). */
  spec?: RemoteSpec;
  /** Best left out: one given must say what the spec says, or the build stops. */
  exposes?: Record<string, string>;
  title: string;
  plugins?: webpack.WebpackPluginInstance[];
  devServer?: DevServerConfiguration;
  /** Development builds only. */
  developmentEntries?: string[];
}

type Argv = { mode?: Configuration['mode'] };

interface PackageJson {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  exports?: Record<string, string>;
}

const ROOT = __dirname;
const CHUNK_LOAD_TIMEOUT_MS = 10_000;
/** The TypeScript target (`tsconfig.base.json`), for ts-loader and esbuild alike. */
export const BROWSER_TARGET = 'es2022';
/**
 * Content-hashed files, precompressed for nginx's `gzip_static`/`brotli_static`: they never
 * change. A file naming the current build would need its copies swapped in step at each deploy.
 */
export const PRECOMPRESSED = /\.[0-9a-f]{8,}\.(js|css|svg)$/;
/** Below this size a compressed copy saves less than its headers cost. */
const PRECOMPRESS_MIN_BYTES = 1024;

function precompression(): webpack.WebpackPluginInstance[] {
  const common = { test: PRECOMPRESSED, threshold: PRECOMPRESS_MIN_BYTES, minRatio: 0.9 };
  return [
    new CompressionPlugin({
      ...common,
      algorithm: 'gzip',
      compressionOptions: { level: 9 },
      filename: '[path][base].gz',
    }),
    new CompressionPlugin<BrotliOptions>({
      ...common,
      algorithm: 'brotliCompress',
      compressionOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } },
      filename: '[path][base].br',
    }),
  ];
}

/** Transpile only (docs/decisions/0024-typescript-loader.md); the tsconfig's `noEmit` is for `tsc`. */
export function typescriptRule(dir: string, production: boolean): webpack.RuleSetRule {
  return {
    test: /\.tsx?$/,
    loader: 'ts-loader',
    options: {
      configFile: join(dir, 'tsconfig.json'),
      transpileOnly: true,
      compilerOptions: {
        noEmit: false,
        target: BROWSER_TARGET,
        module: 'esnext',
        jsx: 'react-jsx',
        sourceMap: !production,
      },
      // Comments out, but for webpack's magic comments (build/magic-comments.ts).
      getCustomTransformers: () => ({ before: [webpackMagicCommentsOnly] }),
    },
  };
}

/** SWC only for React Refresh's transform, on what ts-loader wrote. */
function refreshTransform(dir: string) {
  return {
    test: /\.tsx?$/,
    include: join(dir, 'src'),
    loader: 'swc-loader',
    options: {
      jsc: {
        parser: { syntax: 'ecmascript', jsx: true },
        target: BROWSER_TARGET,
        transform: { react: { refresh: true, development: true, runtime: 'automatic' } },
      },
      sourceMaps: true,
    },
  };
}

const TerserPlugin = createRequire(require.resolve('webpack'))('minimizer-webpack-plugin') as typeof MinimizerPlugin;

/**
 * @module-federation/enhanced's runtime plugin that publishes the host's federation runtime for
 * `externalRuntime` containers (`globalThis._FEDERATION_RUNTIME_CORE`), as an ES module.
 */
function injectExternalRuntimePlugin(): string {
  const fromEnhanced = createRequire(require.resolve('@module-federation/enhanced/webpack'));
  return join(dirname(fromEnhanced.resolve('@module-federation/inject-external-runtime-core-plugin')), 'index.js');
}

/**
 * What the persistent cache's entries were built with, for its version: package-lock.json (the
 * packages, webpack and the loaders among them) and every project file the webpack configs load,
 * found through Node's module graph from `configFile` and this file. webpack's own
 * `buildDependencies` walks that graph too but resolves every package it meets on the way:
 * some 1.5 s of each part's cold build, for the same answer.
 */
export function configSourcesHash(configFile: string): string {
  const hash = createHash('sha256').update(readFileSync(join(ROOT, 'package-lock.json')));
  const seen = new Set<string>();
  const visit = (module: NodeJS.Module | undefined): void => {
    if (!module || seen.has(module.filename) || module.filename.split(sep).includes('node_modules')) return;
    seen.add(module.filename);
    hash.update(`\0${module.filename}\0`).update(readFileSync(module.filename));
    module.children.forEach(visit);
  };
  visit(require.cache[configFile]);
  visit(require.cache[__filename]);
  return hash.digest('hex').slice(0, 16);
}

function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

function installedVersion(pkg: string): string {
  return readJson<PackageJson>(require.resolve(`${pkg}/package.json`, { paths: [ROOT] })).version;
}

/**
 * The shared-singleton list. Every part shares exactly these, so one copy of React, one router,
 * one query client and one `shared` package run in the browser, whichever part loads first.
 */
const NOT_IN_BROWSERS = ['./node/', './testing/'];
/**
 * Subpaths that hold no state a page must have once and that no page needs to start: the runtime
 * configuration's schema (zod, 23 kB gzip). A shared module is provided whole, and the host's are
 * eager, so a shared schema sat in every page's first script; unshared, it is bundled where it is
 * used, in the host's `config-check` chunk, loaded only by a page that fetches `/config.json`.
 */
const NOT_SHARED = new Set(['./runtime-config']);

interface SharedSingleton {
  singleton: true;
  requiredVersion: string;
  /** The module provided under the shared name, when it is not the package itself. */
  import?: string;
  version?: string;
}

/** The exports of react-router the browser parts call, shared as `react-router-dom` (see the file). */
const ROUTER_CLIENT_API = join(ROOT, 'shared', 'src', 'browser', 'router', 'react-router-dom.ts');
/** The exports of TanStack Query the browser parts call, shared as `@tanstack/react-query` (see the file). */
const QUERY_CLIENT_API = join(ROOT, 'shared', 'src', 'browser', 'query', 'tanstack-react-query.ts');

/** The ES module build a package's `exports` names for `import` (`@tanstack/react-query`'s `build/modern/index.js`). */
function esModuleEntry(pkg: string): string {
  const manifestPath = require.resolve(`${pkg}/package.json`, { paths: [ROOT] });
  const exports = readJson<{ exports: { '.': { import: { default: string } } } }>(manifestPath).exports;
  return join(dirname(manifestPath), exports['.'].import.default);
}

/**
 * Shared libraries provided as a list of their exports, each list a module that imports the
 * package under its own shared name: that one import is given the package itself (its ES module
 * build, which webpack then shakes down to the list), where every other import of the name is
 * the shared module. The router's list imports `react-router`, a name not shared, and needs none.
 */
function sharedLibraryLists(): webpack.WebpackPluginInstance {
  const entry = esModuleEntry('@tanstack/react-query');
  return new webpack.NormalModuleReplacementPlugin(/^@tanstack\/react-query$/, (resolveData: webpack.ResolveData) => {
    if (resolveData.contextInfo.issuer === QUERY_CLIENT_API) resolveData.request = entry;
  });
}

/**
 * react-router's production build, for production builds: its package's exports name only its
 * development build (no `production` condition), which differs by its developer warnings alone,
 * kept in every page's first script otherwise.
 */
function routerProductionBuild(): Record<string, string> {
  const dist = join(dirname(require.resolve('react-router/package.json', { paths: [ROOT] })), 'dist', 'production');
  return { 'react-router$': join(dist, 'index.mjs'), 'react-router/dom$': join(dist, 'dom-export.mjs') };
}

export function sharedSingletons(pkg: PackageJson): Record<string, SharedSingleton> {
  const deps = pkg.dependencies ?? {};
  const range = (name: string) => deps[name] ?? `^${installedVersion(name)}`;
  const entry = (requiredVersion: string) => ({ singleton: true as const, requiredVersion });
  const sharedPkg = readJson<PackageJson>(join(ROOT, 'shared', 'package.json'));
  const sharedEntries = Object.keys(sharedPkg.exports ?? {})
    // `shared`'s subpaths say where they run: `browser/…` and the universal contracts reach the
    // browser and are shared; `node/…` and `testing/…` never do (lint keeps them out of
    // browser code); a stylesheet is injected, not shared; NOT_SHARED are bundled where used.
    .filter(
      (subpath) =>
        !NOT_IN_BROWSERS.some((prefix) => subpath.startsWith(prefix)) &&
        !NOT_SHARED.has(subpath) &&
        !subpath.endsWith('.css'),
    )
    .map((subpath) => [`shared${subpath.slice(1)}`, entry(sharedPkg.version)] as const);
  return {
    react: entry(range('react')),
    'react/jsx-runtime': entry(range('react')),
    'react-dom': entry(range('react-dom')),
    'react-dom/client': entry(range('react-dom')),
    // One router, and of react-router only what a browser page calls: a shared module is
    // provided whole, and the whole package is 66 kB gzip to the list's 30.
    'react-router-dom': {
      ...entry(range('react-router-dom')),
      import: ROUTER_CLIENT_API,
      version: installedVersion('react-router-dom'),
    },
    // One Iconify registry: the bundled icons are registered once, whichever part loads first.
    '@iconify/react/offline': entry(`^${installedVersion('@iconify/react')}`),
    // One QueryClient context: every remote's pages use `shared/browser/api/query-client` and its
    // cache. Of the package, only what a browser page calls, as the router (see the file).
    '@tanstack/react-query': {
      ...entry(range('@tanstack/react-query')),
      import: QUERY_CLIENT_API,
      version: installedVersion('@tanstack/react-query'),
    },
    ...Object.fromEntries(sharedEntries),
  };
}

/**
 * Where a page's development client opens its socket: the server it was loaded from, at the
 * address the page was opened at (`auto:` and 0.0.0.0 stand for the page's protocol and hostname,
 * port 0 for its port). With a fixed hostname, a page opened at another address (127.0.0.1 for
 * localhost) would send its socket to an origin not its own, which the server refuses ("Invalid
 * Host/Origin header"), and take no update. On the host's page only the host's client runs
 * (build/dev-server.ts).
 */
export const PAGE_WEB_SOCKET_URL = 'auto://0.0.0.0:0/ws';

/**
 * Where a development server listens: LISTEN_HOST, as the production servers do, or every
 * interface, so that localhost, 127.0.0.1 and the machine's address all reach it
 * (docs/decisions/0039-development-servers-at-any-address.md). webpack-dev-server still answers
 * only a Host that is an IP address or localhost: a page of another site reached through a
 * name of its own (DNS rebinding) is refused.
 */
export function devServerAddress(port: number, env: NodeJS.ProcessEnv = process.env): DevServerConfiguration {
  const host = env.LISTEN_HOST?.trim();
  return host ? { port, host } : { port };
}

/** The development server's port: the one given, else the remote's own spec's (its variable, then its default). */
function devServerPort({ name, port, spec }: FederatedAppOptions): number {
  if (port !== undefined) return port;
  if (!spec) throw new Error(`the webpack config of ${name} gives neither a port nor a spec`);
  return readPort({ name, port: spec.port, portEnv: spec.portEnv });
}

/** What one build of a part is: the facts every section of its configuration reads. */
interface PartBuild {
  options: FederatedAppOptions;
  production: boolean;
  mode: 'production' | 'development';
  isHost: boolean;
  /** A remote under `webpack serve`: Fast Refresh in its standalone shell, the one page that takes its hot updates. */
  remoteDevelopment: boolean;
  pkg: PackageJson;
  build: { id: string; timestamp: number };
}

function partBuild(options: FederatedAppOptions, argv: Argv): PartBuild {
  const production = argv.mode !== 'development';
  const isHost = options.name === 'host';
  return {
    options,
    production,
    mode: production ? 'production' : 'development',
    isHost,
    remoteDevelopment: !production && !isHost,
    pkg: readJson<PackageJson>(join(options.dir, 'package.json')),
    build: { id: process.env.BUILD_ID || randomUUID(), timestamp: Date.now() },
  };
}

/**
 * Kept in the package's node_modules/.cache; a change to a config or to the installed packages
 * starts it afresh. The build id is not in the key: DefinePlugin rebuilds only the modules that
 * read `__BUILD_ID__`.
 */
function persistentCache({ options, mode }: PartBuild): Configuration['cache'] {
  return {
    type: 'filesystem',
    cacheDirectory: join(options.dir, 'node_modules', '.cache', 'webpack'),
    name: `${options.name}-${mode}`,
    version: `${mode}-${BROWSER_TARGET}-${configSourcesHash(join(options.dir, 'webpack.config.ts'))}`,
    buildDependencies: {},
  };
}

function outputOptions({ options, production, isHost }: PartBuild): Configuration['output'] {
  return {
    path: join(options.dir, 'dist'),
    // Federated entries cannot take [contenthash]; chunks can and do.
    filename: production ? '[name].[fullhash:8].js' : '[name].js',
    chunkFilename: production ? '[name].[contenthash:16].js' : '[name].js',
    // The host serves deep links (/gifts/…); a remote's assets resolve from wherever its entry was loaded.
    publicPath: isHost ? '/' : 'auto',
    uniqueName: options.name,
    chunkLoadTimeout: CHUNK_LOAD_TIMEOUT_MS,
    // A remote's chunks are cross-origin scripts on the host's page: one with `integrity` must be
    // fetched with CORS, and a preload is reused only by a request of the same mode.
    crossOriginLoading: isHost ? false : 'anonymous',
    clean: true,
  };
}

function moduleRules({ options, production, remoteDevelopment }: PartBuild): webpack.RuleSetRule[] {
  return [
    typescriptRule(options.dir, production),
    // React Refresh's registrations, which ts-loader does not write, added after it by SWC.
    ...(remoteDevelopment ? [{ ...refreshTransform(options.dir), enforce: 'post' as const }] : []),
    {
      test: /\.css$/,
      // The stylesheet reaches the page as a string in a script.
      use: ['style-loader', 'css-loader', ...(production ? [MINIFY_CSS_LOADER] : [])],
    },
  ];
}

/**
 * SWC's minifier: as small as terser in a fraction of its time. No `module` option: a remote's
 * entry is a script whose container variable, `var gifts`, the page must see.
 */
export function scriptMinimizer(): webpack.WebpackPluginInstance {
  return new TerserPlugin({ minify: TerserPlugin.swcMinify, terserOptions: { compress: { passes: 2 }, mangle: true } });
}

/** The chunk a remote's `src/index.ts` loads its standalone shell into (`webpackChunkName`). */
const STANDALONE_CHUNK = 'standalone';

function optimization(): Configuration['optimization'] {
  return {
    moduleIds: 'deterministic',
    chunkIds: 'deterministic',
    minimizer: [scriptMinimizer()],
    // webpack's default, async chunks only, but for a remote's standalone shell: what an exposed
    // page shares with it stays in the page's chunk, where split out it was a second request for
    // every page the site loads, to spare a shell the site never runs.
    splitChunks: { chunks: (chunk) => !chunk.canBeInitial() && chunk.name !== STANDALONE_CHUNK },
  };
}

function federationPlugin({ options, isHost, pkg }: PartBuild): ModuleFederationPlugin {
  const shared = sharedSingletons(pkg);
  return new ModuleFederationPlugin({
    name: options.name,
    filename: 'remoteEntry.js',
    exposes: isHost ? {} : remoteExposes(options.name, options.dir, { declared: options.exposes, given: options.spec }),
    remotes: {},
    // The host's copies are eager, in its main.js; a remote's are fetched only when the page lacks them.
    shared: isHost
      ? Object.fromEntries(Object.entries(shared).map(([name, entry]) => [name, { ...entry, eager: true }]))
      : shared,
    // A remote that is down must never hold up the host.
    shareStrategy: 'loaded-first',
    // One federation runtime per page, the host's, provided to the remotes' containers in its ES
    // module form (its CommonJS form would bring a second copy into main.js).
    // The bundler runtime's functions too, to every remote's container (decision 0052).
    ...(isHost ? { runtimePlugins: [injectExternalRuntimePlugin(), BUNDLER_RUNTIME_PROVIDER] } : {}),
    experiments: { externalRuntime: !isHost, optimization: { target: 'web' } },
    manifest: true,
    // Type generation fetches remotes at build time and can hang; contracts live in `shared`.
    dts: false,
  });
}

/**
 * The page is rendered here (build/page-template.ts), not by the plugin's child compilation: that
 * one inherits the federation's hooks and would emit a stray chunk of the shared router.
 */
function pagePlugin({ options }: PartBuild): HtmlWebpackPlugin {
  return new HtmlWebpackPlugin({
    templateContent: ({ compilation }: Record<string, unknown>) =>
      pageHtml(compilation as webpack.Compilation, options.title),
    title: options.title,
    // Deep links work in standalone shells.
    publicPath: '/',
    chunks: ['main'],
  });
}

/** A remote's own build steps: its standalone runtime, shared fallbacks and published routes (decision 0045). */
function remotePlugins({ options, production }: PartBuild): webpack.WebpackPluginInstance[] {
  return [
    new ContainerBundlerRuntimePlugin(),
    new StandaloneRuntimePlugin({ target: BROWSER_TARGET, minify: production }),
    new SharedFallbacksPlugin(),
    publishedRoutesPlugin(options.name, options.spec),
    // Not under `webpack serve`: a hot update changes the chunks behind a running page (decision 0019).
    ...(production ? [new RemoteIntegrityPlugin()] : []),
  ];
}

function plugins(part: PartBuild): webpack.WebpackPluginInstance[] {
  const { options, production, isHost, remoteDevelopment, pkg, build } = part;
  return [
    federationPlugin(part),
    new webpack.DefinePlugin({
      __BUILD_ID__: JSON.stringify(build.id),
      __BUILD_TIMESTAMP__: JSON.stringify(build.timestamp),
      // For a remote's standalone shell (shared/browser/standalone-api).
      __API_PORT__: JSON.stringify(readPort('api')),
    }),
    pagePlugin(part),
    sharedLibraryLists(),
    new ConsumeSharedCachePlugin(),
    new TrimFederationRuntimePlugin(),
    ...(isHost ? [] : remotePlugins(part)),
    ...(production ? precompression() : []),
    ...(remoteDevelopment
      ? [
          new ReactRefreshPlugin({ overlay: false, include: refreshTransform(options.dir).include }),
          new StandaloneDevClientsPlugin(),
        ]
      : []),
    new BuildInfoPlugin({
      ...build,
      app: options.name,
      version: pkg.version,
      dir: isHost ? '_app/builds' : 'builds',
      // The host's server renders its pages from this build: it must be of the same code.
      ...(isHost && production ? { codeVersion: codeVersionOf(dirname(options.dir), options.name) } : {}),
    }),
    ...(options.plugins ?? []),
  ];
}

function devServer({ options, isHost }: PartBuild): DevServerConfiguration {
  return {
    ...devServerAddress(devServerPort(options)),
    hot: true,
    historyApiFallback: true,
    headers: isHost ? {} : { 'Access-Control-Allow-Origin': '*' },
    client: { overlay: { runtimeErrors: false }, webSocketURL: PAGE_WEB_SOCKET_URL },
    ...options.devServer,
    setupMiddlewares: (middlewares, server) => {
      reloadOnOtherInputs(server);
      return options.devServer?.setupMiddlewares?.(middlewares, server) ?? middlewares;
    },
  };
}

/**
 * How long a rebuild waits after a file changes, for the rest of the same save. An editor's save
 * is a truncation and a write: two change events, which a loaded machine delivers apart. With
 * webpack's 20 ms the first started a build of the emptied file and the second a build of its
 * own, so every page took two reloads for one save.
 */
export const SAVE_SETTLE_MS = 300;

export function createWebpackConfig(options: FederatedAppOptions) {
  return (_env: unknown, argv: Argv): Configuration & { devServer?: DevServerConfiguration } => {
    const part = partBuild(options, argv);
    // Spares @module-federation/enhanced finding its webpack from a thrown stack (half a second a build).
    process.env.FEDERATION_WEBPACK_PATH ||= require.resolve('webpack');
    // The manifest plugin leaves hot-update files out of the exposes' assets only under NODE_ENV
    // development, which `webpack serve --mode development` does not set; listed, the host's
    // page would preload them and fail on each.
    if (part.remoteDevelopment) process.env.NODE_ENV = 'development';
    return {
      mode: part.mode,
      context: options.dir,
      cache: persistentCache(part),
      entry: { main: [...(part.production ? [] : (options.developmentEntries ?? [])), './src/index.ts'] },
      devtool: part.production ? false : 'eval-cheap-module-source-map',
      ...(part.production ? {} : { watchOptions: { aggregateTimeout: SAVE_SETTLE_MS } }),
      output: outputOptions(part),
      resolve: { extensions: ['.tsx', '.ts', '.js'], alias: part.production ? routerProductionBuild() : {} },
      module: { rules: moduleRules(part) },
      performance: { hints: false },
      stats: part.production ? 'normal' : 'errors-warnings',
      optimization: optimization(),
      plugins: plugins(part),
      devServer: devServer(part),
    };
  };
}
