/** @jest-environment node */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import webpack, { type Compilation, type WebpackPluginInstance } from 'webpack';
import { devClientDirs, filesOutsideModules, StandaloneDevClientsPlugin, takeDevClients } from './dev-server';

let dir: string;

function write(path: string, text: string): void {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'dev-server-'));
  write('src/index.js', 'console.log("page");\n');
  write('src/container.js', 'console.log("container");\n');
  write('content/home.md', '# Home\n');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A development build of two entries, `main` and `container`; resolves with its compilation. */
function build(plugins: WebpackPluginInstance[]): Promise<Compilation> {
  const compiler = webpack({
    mode: 'development',
    context: dir,
    entry: { main: './src/index.js', container: './src/container.js' },
    devtool: false,
    output: { path: join(dir, 'dist') },
    infrastructureLogging: { level: 'error' },
    plugins,
  });
  return new Promise((resolve, reject) => {
    compiler.run((error, stats) => {
      compiler.close(() => undefined);
      if (error || !stats) return reject(error ?? new Error('no stats'));
      if (stats.hasErrors()) return reject(new Error(stats.toString('errors-only')));
      resolve(stats.compilation);
    });
  });
}

/** The modules of the named entry's chunk, by resource path. */
function entryResources(compilation: Compilation, name: string): string[] {
  const chunk = [...compilation.chunks].find((candidate) => candidate.name === name);
  if (!chunk) throw new Error(`no chunk ${name}`);
  return compilation.chunkGraph
    .getChunkModules(chunk)
    .map((module) => (module as { resource?: string }).resource ?? '')
    .filter(Boolean);
}

describe('the development clients (StandaloneDevClientsPlugin)', () => {
  it("puts the clients added to every entry into the standalone shell's alone, before its own modules", async () => {
    // webpack's hot-update emitter stands in for the clients: a file in one of their folders.
    const client = require.resolve('webpack/hot/emitter.js');
    const other = join(dir, 'src', 'everywhere.js');
    write('src/everywhere.js', 'console.log("everywhere");\n');
    const globally = (request: string) => new webpack.EntryPlugin(dir, request, { name: undefined });
    const compilation = await build([globally(client), globally(other), new StandaloneDevClientsPlugin()]);

    expect(entryResources(compilation, 'main')).toEqual(expect.arrayContaining([client, other]));
    expect(entryResources(compilation, 'container')).toContain(other);
    expect(entryResources(compilation, 'container')).not.toContain(client);
    const main = compilation.entries
      .get('main')
      ?.dependencies.map((dependency) => (dependency as { request?: string }).request);
    // The clients first, then the reload for an update a newer build overtook, then the shell's own modules.
    expect(main).toEqual([client, join(__dirname, 'hot-update-overtaken.cjs'), './src/index.js']);
  }, 60_000);

  it('knows the clients by their folders', () => {
    const dirs = devClientDirs();
    const global = [
      { request: `${require.resolve('webpack-dev-server/client/index.js')}?protocol=ws%3A&hostname=localhost` },
      { request: '/app/src/polyfill.js' },
      { request: require.resolve('webpack/hot/dev-server.js') },
      { request: require.resolve('@pmmmwh/react-refresh-webpack-plugin/client/ReactRefreshEntry.js') },
      {},
    ];
    const [wds, polyfill, hot, refresh, unnamed] = global;
    expect(takeDevClients(global, dirs)).toEqual([wds, hot, refresh]);
    expect(global).toEqual([polyfill, unnamed]);
  });
});

describe("a rebuild caused by the build's other inputs (filesOutsideModules)", () => {
  it('names the files the build read besides its modules, not those its modules were built from', async () => {
    const markdown = join(dir, 'content', 'home.md');
    const readsMarkdown: WebpackPluginInstance = {
      apply: (compiler) =>
        compiler.hooks.thisCompilation.tap('reads-markdown', (compilation) => {
          compilation.hooks.processAssets.tap('reads-markdown', () => compilation.fileDependencies.add(markdown));
        }),
    };
    const compilation = await build([readsMarkdown]);
    const source = join(dir, 'src', 'index.js');
    expect(filesOutsideModules(compilation, [source, markdown, join(dir, 'unrelated.txt')])).toEqual([markdown]);
    expect(filesOutsideModules(compilation, [source])).toEqual([]);
  }, 60_000);
});
