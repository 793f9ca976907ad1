/**
 * The one webpack factory every package's webpack.config.ts calls. It owns what must agree
 * across independently built parts: the shared singletons, output naming and cache-friendly
 * hashing, the build-info files, and the module federation setup.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import webpack, { type Configuration } from 'webpack';
import type { Configuration as DevServerConfiguration } from 'webpack-dev-server';
import { BuildInfoPlugin } from './shared/src/node/build-info-plugin';
import { remoteExposes } from './shared/src/node/remote-exposes';

export interface FederatedAppOptions {
  /** Federation container name: `host`, `gifts`, `redeem` or `content`. */
  name: string;
  /** The package folder (its `__dirname`). */
  dir: string;
  /** Port of the development server. */
  port: number;
  /**
   * Remotes only, and best left out: the registry's (`shared/src/remotes.ts`) is used, checked
   * against the remote's files; one given here, `{ './GamePage': './src/exposed/game-page.tsx' }`,
   * must say the same or the build stops.
   */
  exposes?: Record<string, string>;
  /** Title of the HTML page (the host's page, or a remote's standalone shell). */
  title: string;
  /** Extra plugins, such as a remote's own build steps. */
  plugins?: webpack.WebpackPluginInstance[];
  /** Development server additions (the host serves its runtime configuration). */
  devServer?: DevServerConfiguration;
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

export function sharedSingletons(pkg: PackageJson): Record<string, { singleton: true; requiredVersion: string }> {
  const deps = pkg.dependencies ?? {};
  const range = (name: string) => deps[name] ?? `^${installedVersion(name)}`;
  const entry = (requiredVersion: string) => ({ singleton: true as const, requiredVersion });
  const sharedPkg = readJson<PackageJson>(join(ROOT, 'shared', 'package.json'));
  const sharedEntries = Object.keys(sharedPkg.exports ?? {})
    // `shared`'s subpaths say where they run: `browser/…` and the universal contracts reach the
    // browser and are shared; `node/…` and `testing/…` never do (lint keeps them out of
    // browser code); a stylesheet is injected, not shared.
    .filter((subpath) => !NOT_IN_BROWSERS.some((prefix) => subpath.startsWith(prefix)) && !subpath.endsWith('.css'))
    .map((subpath) => [`shared${subpath.slice(1)}`, entry(sharedPkg.version)] as const);
  return {
    react: entry(range('react')),
    'react/jsx-runtime': entry(range('react')),
    'react-dom': entry(range('react-dom')),
    'react-dom/client': entry(range('react-dom')),
    'react-router': entry(`^${installedVersion('react-router')}`),
    'react-router-dom': entry(range('react-router-dom')),
    // One Iconify registry: the bundled icons are registered once, whichever part loads first.
    '@iconify/react/offline': entry(`^${installedVersion('@iconify/react')}`),
    // One QueryClient context: every remote's pages use `shared/browser/api/query-client` and its cache.
    '@tanstack/react-query': entry(range('@tanstack/react-query')),
    ...Object.fromEntries(sharedEntries),
  };
}

export function createWebpackConfig(options: FederatedAppOptions) {
  return (_env: unknown, argv: Argv): Configuration & { devServer?: DevServerConfiguration } => {
    const production = argv.mode !== 'development';
    const isHost = options.name === 'host';
    const pkg = readJson<PackageJson>(join(options.dir, 'package.json'));
    const build = { id: process.env.BUILD_ID || randomUUID(), timestamp: Date.now() };
    const buildsDir = isHost ? '_app/builds' : 'builds';

    return {
      mode: production ? 'production' : 'development',
      context: options.dir,
      entry: { main: './src/index.ts' },
      devtool: production ? false : 'eval-cheap-module-source-map',
      output: {
        path: join(options.dir, 'dist'),
        // Federated entries cannot take [contenthash]; chunks can and do.
        filename: production ? '[name].[fullhash:8].js' : '[name].js',
        chunkFilename: production ? '[name].[contenthash:16].js' : '[name].js',
        // The host serves deep links (/gifts/…), so its assets must resolve from the root;
        // a remote's assets resolve from wherever its remoteEntry.js was loaded.
        publicPath: isHost ? '/' : 'auto',
        uniqueName: options.name,
        chunkLoadTimeout: CHUNK_LOAD_TIMEOUT_MS,
        clean: true,
      },
      resolve: { extensions: ['.tsx', '.ts', '.js'] },
      module: {
        rules: [
          {
            test: /\.tsx?$/,
            loader: 'ts-loader',
            options: { transpileOnly: true, configFile: join(options.dir, 'tsconfig.json') },
          },
          { test: /\.css$/, use: ['style-loader', 'css-loader'] },
        ],
      },
      performance: { hints: false },
      stats: production ? 'normal' : 'errors-warnings',
      optimization: { moduleIds: 'deterministic', chunkIds: 'deterministic' },
      plugins: [
        new ModuleFederationPlugin({
          name: options.name,
          filename: 'remoteEntry.js',
          exposes: isHost ? {} : remoteExposes(options.name, options.dir, options.exposes),
          remotes: {},
          shared: sharedSingletons(pkg),
          // A remote that is down must never hold up the host: share what is loaded first.
          shareStrategy: 'loaded-first',
          manifest: true,
          // Type generation fetches remotes at build time and can hang; contracts live in `shared`.
          dts: false,
        }),
        new webpack.DefinePlugin({
          __BUILD_ID__: JSON.stringify(build.id),
          __BUILD_TIMESTAMP__: JSON.stringify(build.timestamp),
        }),
        new HtmlWebpackPlugin({
          template: join(ROOT, 'shared', 'src', 'browser', 'index.html'),
          title: options.title,
          // The page's own scripts resolve from the root, so deep links work in standalone shells.
          publicPath: '/',
          templateParameters: {
            themeCss: readFileSync(join(ROOT, 'shared', 'src', 'browser', 'theme', 'theme.css'), 'utf8'),
          },
          chunks: ['main'],
        }),
        new BuildInfoPlugin({ ...build, app: options.name, version: pkg.version, dir: buildsDir }),
        ...(options.plugins ?? []),
      ],
      devServer: {
        port: options.port,
        host: 'localhost',
        hot: true,
        historyApiFallback: true,
        headers: isHost ? {} : { 'Access-Control-Allow-Origin': '*' },
        client: { overlay: { runtimeErrors: false } },
        ...options.devServer,
      },
    };
  };
}
