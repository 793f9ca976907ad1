/**
 * `npm run dev` (webpack serve) only: what the pages served by a part's development server do
 * when its files change. Nothing here reaches a production build.
 *
 * - StandaloneDevClientsPlugin: webpack-dev-server's client, webpack's hot-update client and
 *   React Refresh's runtime set-up are added to every entry of a build, a remote's container
 *   (remoteEntry.js) among them. On the host's page that container is another build's code: a
 *   hot update of it cannot reach the host's React, and its client would show the remote's
 *   compile errors in the host's page and block reloads. The plugin keeps them in the remote's
 *   standalone shell (its `main` entry), where Fast Refresh works; the host's page reloads on
 *   a remote's new build by itself (host/src/dev/dev-server-reload.ts). The shell also reloads when a
 *   newer build overtakes an update still being prepared (hot-update-overtaken.cjs).
 * - reloadOnOtherInputs: a rebuild caused by a file no module was built from (remote-content's
 *   Markdown, the page template, the theme) changes no module, so no hot update carries it:
 *   webpack-dev-server's pages are told to reload, with the message its own static files use.
 */
import { join, relative } from 'node:path';
import { EntryPlugin, type Compilation, type Compiler, type Module, type Stats } from 'webpack';
import type WebpackDevServer from 'webpack-dev-server';

const STANDALONE = 'StandaloneDevClientsPlugin';

/** The folders of the development clients that webpack-dev-server and React Refresh add to every entry. */
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

/** Takes out of `global` the dependencies that are development clients and returns them, in order. */
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
    // After `make`, where each of them was added as a global entry, and before `seal`, which
    // puts every entry's dependencies (the global ones first) into its chunk.
    compiler.hooks.finishMake.tap({ name: STANDALONE, stage: 100 }, (compilation) => {
      if (compilation.compiler !== compiler) return;
      const entry = compilation.entries.get(this.entry);
      if (!entry) return;
      const clients = takeDevClients(compilation.globalEntry.dependencies as EntryDependencyLike[], dirs);
      // Before the page's own modules, as webpack-dev-server's global entries run.
      entry.dependencies.unshift(...(clients as typeof entry.dependencies));
    });
  }
}

/**
 * The files among `changed` that the compilation depends on but no module was built from: the
 * build's other inputs, read by plugins (payloads, the page).
 */
export function filesOutsideModules(compilation: Compilation, changed: Iterable<string>): string[] {
  // What a module was built from, as the compilation itself gathers it: a built module keeps
  // it in its snapshot, not in `buildInfo.fileDependencies`, which is dropped once that is made.
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

/** Has the pages of `devServer` reload after a rebuild that one of the build's other inputs caused. */
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
