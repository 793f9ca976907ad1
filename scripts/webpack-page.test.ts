/** @jest-environment node */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import webpack from 'webpack';
import { createWebpackConfig } from '../webpack.config.base';

const ROOT = join(__dirname, '..');
let dir: string;

function write(path: string, text: string): void {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'webpack-page-'));
  write('src/index.js', 'import("./bootstrap");\n');
  write('src/bootstrap.js', 'import { value } from "lib";\nconsole.log(value);\n');
  write('lib/index.js', 'export const value = "shared";\n');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The page plugin the factory gives every part. */
function pagePlugin(mode: 'development' | 'production'): HtmlWebpackPlugin {
  const config = createWebpackConfig({ name: 'host', dir: join(ROOT, 'host'), port: 1, title: 'A title' })(undefined, {
    mode,
  });
  const plugin = config.plugins?.find((candidate) => candidate instanceof HtmlWebpackPlugin);
  if (!plugin) throw new Error('the factory gives no HtmlWebpackPlugin');
  return plugin;
}

/**
 * A lazily shared module given by path, as the factory shares react-router-dom's client API,
 * with chunks named as `webpack serve` names them; resolves with the errors and the files.
 */
function build(page: HtmlWebpackPlugin): Promise<{ errors: string[]; files: string[]; html: string }> {
  const compiler = webpack({
    mode: 'development',
    context: dir,
    entry: './src/index.js',
    devtool: false,
    output: { path: join(dir, 'dist'), filename: '[name].js', chunkFilename: '[name].js', clean: true },
    optimization: { chunkIds: 'deterministic', moduleIds: 'deterministic' },
    infrastructureLogging: { level: 'error' },
    plugins: [
      new ModuleFederationPlugin({
        name: 'app',
        dts: false,
        shared: { lib: { import: join(dir, 'lib', 'index.js'), singleton: true, version: '1.0.0' } },
      }),
      page,
    ],
  });
  return new Promise((resolve, reject) => {
    compiler.run((error, stats) => {
      compiler.close(() => undefined);
      if (error || !stats) return reject(error ?? new Error('no stats'));
      resolve({
        errors: stats.compilation.errors.map((problem) => problem.message),
        files: readdirSync(join(dir, 'dist')).sort(),
        html: readFileSync(join(dir, 'dist', 'index.html'), 'utf8'),
      });
    });
  });
}

describe("the page every part serves (webpack.config.base.ts's HtmlWebpackPlugin)", () => {
  it('writes no chunk of its own beside a module shared by path: the page is rendered without a child compilation', async () => {
    const { errors, files } = await build(pagePlugin('development'));
    expect(errors).toEqual([]);
    // Every script is one of the build's own: no chunk in Node's format (`exports.id`).
    const scripts = files.filter((file) => file.endsWith('.js'));
    for (const script of scripts)
      expect(readFileSync(join(dir, 'dist', script), 'utf8')).not.toMatch(/exports\.ids?\s*=/);
  }, 60_000);

  it('is the shared template with its title and the theme, whichever the mode', async () => {
    for (const mode of ['development', 'production'] as const) {
      const { html } = await build(pagePlugin(mode));
      expect(html).toContain('<title>A title</title>');
      expect(html).toContain('--p-radius');
      expect(html).not.toContain('<%');
      expect(html).toMatch(/<script defer[^>]* src="\/main\.js"><\/script>/);
    }
  }, 60_000);
});
