/**
 * A remote's production build in a folder of its own, for the build plugins' tests: the source
 * files a test writes, then webpack as webpack.config.base.ts runs it, minified as the parts are
 * (federated as the gifts remote unless told otherwise), and every file the build wrote.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import webpack, { type Configuration, type WebpackPluginInstance } from 'webpack';
import { scriptMinimizer } from '../../webpack.config.base';

export interface RemoteProject {
  dir: string;
  /** Writes `text` at `path` inside the project, its folders made as needed. */
  write(path: string, text: string): void;
  /** Builds the project with `plugins` after the federation plugin (none with `federated: false`). */
  build(
    plugins: WebpackPluginInstance[],
    options?: { federated?: boolean; output?: Configuration['output']; shared?: SharedModules },
  ): Promise<Record<string, Buffer>>;
  remove(): void;
}

/** The federation plugin's `shared`, for a test whose page takes modules from the share scope. */
export type SharedModules = Record<string, { import: string; singleton: true; requiredVersion: false }>;

/** Every file under `folder`, by its path inside it. */
export function filesIn(folder: string): Record<string, Buffer> {
  const files: Record<string, Buffer> = {};
  const visit = (current: string) => {
    for (const name of readdirSync(current)) {
      const path = join(current, name);
      if (statSync(path).isDirectory()) visit(path);
      else files[relative(folder, path)] = readFileSync(path);
    }
  };
  visit(folder);
  return files;
}

/** A fresh project under the system's temporary folder, `files` written in it. */
export function remoteProject(prefix: string, files: Record<string, string>): RemoteProject {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  for (const [path, text] of Object.entries(files)) write(path, text);

  async function build(
    plugins: WebpackPluginInstance[],
    {
      federated = true,
      output = {},
      shared,
    }: { federated?: boolean; output?: Configuration['output']; shared?: SharedModules } = {},
  ): Promise<Record<string, Buffer>> {
    const compiler = webpack({
      mode: 'production',
      context: dir,
      entry: { main: './src/index.js' },
      devtool: false,
      optimization: { minimizer: [scriptMinimizer()] },
      output: {
        path: join(dir, 'dist'),
        filename: '[name].[fullhash:8].js',
        chunkFilename: '[name].[contenthash:16].js',
        publicPath: 'auto',
        crossOriginLoading: 'anonymous',
        clean: true,
        ...output,
      },
      infrastructureLogging: { level: 'error' },
      plugins: [
        ...(federated
          ? [
              new ModuleFederationPlugin({
                name: 'gifts',
                filename: 'remoteEntry.js',
                exposes: { './Page': './src/page.js' },
                ...(shared ? { shared } : {}),
                manifest: true,
                dts: false,
              }),
            ]
          : []),
        ...plugins,
      ],
    });
    return new Promise((resolve, reject) => {
      compiler.run((error, stats) => {
        compiler.close(() => {
          if (error || !stats || stats.hasErrors()) return reject(error ?? new Error(stats?.toString('errors-only')));
          resolve(filesIn(join(dir, 'dist')));
        });
      });
    });
  }

  return { dir, write, build, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
