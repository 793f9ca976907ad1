/**
 * `npm run dev` only. A remote's hot update cannot reach the host's React, so its development
 * clients stay in its standalone shell (the host reloads: host/src/dev/dev-server-reload.ts).
 */
import { join, relative } from 'node:path';
import { EntryPlugin, type Compilation, type Compiler, type Module, type Stats } from 'webpack';
import type WebpackDevServer from 'webpack-dev-server';

const STANDALONE = 'StandaloneDevClientsPlugin';

export function devClientDirs(): string[] {
  const dirOf = (request: string) => require.resolve(request).replace(/[^/\\]+$/, '');
  return [
    dirOf('webpack-dev-server/client/index.js'),
    dirOf('webpack/hot/dev-server.js'),
    dirOf('@pmmmwh/react-refresh-webpack-plugin/client/ReactRefreshEntry.js'),
  ];
}

interface EntryDependencyLike {
  request?: string;
}

export function takeDevClients<D extends EntryDependencyLike>(global: D[], dirs: readonly string[]): D[] {
  const clients = global.filter(({ request }) => request !== undefined && dirs.some((dir) => request.startsWith(dir)));
  const others = global.filter((dependency) => !clients.includes(dependency));
  global.splice(0, global.length, ...others);
  return clients;
}

export class StandaloneDevClientsPlugin {
  constructor(private readonly entry = 'main') {}

  apply(compiler: Compiler): void {
    const dirs = devClientDirs();
    // After the clients in the entry: an update a newer build overtook reloads the shell.
    new EntryPlugin(compiler.context, join(__dirname, 'hot-update-overtaken.cjs'), { name: this.entry }).apply(
      compiler,
    );
    // Before `seal` puts the global entries into every chunk.
    compiler.hooks.finishMake.tap({ name: STANDALONE, stage: 100 }, (compilation) => {
      if (compilation.compiler !== compiler) return;
      const entry = compilation.entries.get(this.entry);
      if (!entry) return;
      const clients = takeDevClients(compilation.globalEntry.dependencies as EntryDependencyLike[], dirs);
      entry.dependencies.unshift(...(clients as typeof entry.dependencies));
    });
  }
}

/** Inputs read by plugins (Markdown, the page template): no hot update carries them. */
export function filesOutsideModules(compilation: Compilation, changed: Iterable<string>): string[] {
  // A built module keeps its files in its snapshot; `buildInfo.fileDependencies` is dropped by then.
  const fromModules = new Set<string>();
  const files = { addAll: (items: Iterable<string>) => void [...items].forEach((file) => fromModules.add(file)) };
  const ignored = { addAll: () => undefined };
  for (const module of compilation.modules) {
    module.addCacheDependencies(
      ...([files, ignored, ignored, ignored] as unknown as Parameters<Module['addCacheDependencies']>),
    );
  }
  return [...changed].filter((file) => compilation.fileDependencies.has(file) && !fromModules.has(file));
}

export function reloadOnOtherInputs(devServer: WebpackDevServer): void {
  const compiler = devServer.compiler as Compiler;
  compiler.hooks.done.tap('reloadOnOtherInputs', (stats: Stats) => {
    const changed = [...(compiler.modifiedFiles ?? []), ...(compiler.removedFiles ?? [])];
    if (changed.length === 0 || stats.hasErrors() || !devServer.webSocketServer) return;
    const [file] = filesOutsideModules(stats.compilation, changed);
    if (file === undefined) return;
    devServer.sendMessage(devServer.webSocketServer.clients, 'static-changed', relative(compiler.context, file));
  });
}
