/** @jest-environment node */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import webpack from 'webpack';
import { createWebpackConfig } from '../webpack.config.base';

const ROOT = join(__dirname, '..');

/** A fresh project: a page that takes a module shared by path. */
function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'webpack-page-'));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  write('src/index.js', 'import("./bootstrap");\n');
  write('src/bootstrap.js', 'import { value } from "lib";\nconsole.log(value);\n');
  write('lib/index.js', 'export const value = "shared";\n');
  return dir;
}

/** The page plugin the factory gives every part. */
function pagePlugin(mode: 'development' | 'production'): HtmlWebpackPlugin {
  const config = createWebpackConfig({ name: 'host', dir: join(ROOT, 'host'), port: 1, title: 'A title' })(undefined, {
    mode,
  });
  const plugin = config.plugins?.find((candidate) => candidate instanceof HtmlWebpackPlugin);
  if (!plugin) throw new Error('the factory gives no HtmlWebpackPlugin');
  return plugin;
}

interface Built {
  errors: string[];
  /** Every file written, by name, with its text. */
  files: Record<string, string>;
  html: string;
}

/**
 * A lazily shared module given by path, as the factory shares react-router-dom's client API,
 * with chunks named as `webpack serve` names them, built in a project of its own; resolves with
 * the errors and the files.
 */
async function build(page: HtmlWebpackPlugin): Promise<Built> {
  const dir = project();
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
  try {
    return await new Promise<Built>((resolve, reject) => {
      compiler.run((error, stats) => {
        compiler.close(() => undefined);
        if (error || !stats) return reject(error ?? new Error('no stats'));
        const out = join(dir, 'dist');
        const files = Object.fromEntries(readdirSync(out).map((file) => [file, readFileSync(join(out, file), 'utf8')]));
        resolve({
          errors: stats.compilation.errors.map((problem) => problem.message),
          files,
          html: files['index.html'] ?? '',
        });
      });
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The development build both tests read, made once. */
let development: Built;
beforeAll(async () => {
  development = await build(pagePlugin('development'));
}, 60_000);

describe("the page every part serves (webpack.config.base.ts's HtmlWebpackPlugin)", () => {
  it('writes no chunk of its own beside a module shared by path: the page is rendered without a child compilation', () => {
    expect(development.errors).toEqual([]);
    // Every script is one of the build's own: no chunk in Node's format (`exports.id`).
    const scripts = Object.entries(development.files).filter(([file]) => file.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, text] of scripts) expect(text).not.toMatch(/exports\.ids?\s*=/);
  });

  it('is the shared template with its title and the theme, whichever the mode', async () => {
    for (const { html } of [development, await build(pagePlugin('production'))]) {
      expect(html).toContain('<title>A title</title>');
      expect(html).toContain('--p-radius');
      expect(html).not.toContain('<%');
      expect(html).toMatch(/<script defer[^>]* src="\/main\.js"><\/script>/);
    }
  }, 60_000);
});
