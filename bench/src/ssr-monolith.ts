/**
 * The server-rendered monolith: the same monolith build, served by the same host server, but
 * given what the host's server gives the federated pages, as a Nuxt or Next build of the same
 * app would render them: the prerendered pages' markup and data, the inline configuration and
 * preloads of the route's own scripts. The host's server reads these from each remote's build
 * (`builds/latest.json`, `mf-manifest.json`, `prerender/*`); here each "remote" is a folder of
 * the monolith's own files, written by `writeMonolithRemotes` and served by a small static
 * server of the bench's (`serveMonolithRemotes`) that only the host's server reads:
 *
 * - `mf-manifest.json`: each of the remote's modules with the monolith's chunks for it (from
 *   MONOLITH_CHUNKS_FILE), their integrity, and a public path at the monolith's own origin, so
 *   the host's server preloads the monolith's chunks, from the page's origin;
 * - `prerender/*`: the federated remote's prerendered pages, their build id set to the
 *   monolith's, so the monolith's page takes the markup over with its data as the remote's does;
 * - the remote's render bundle (`prerender/render.js` and its styles), with which the host's
 *   server renders the data pages (a gift, a redeem session) per request: the same source as the
 *   monolith's pages, so their markup is what the monolith's code takes over. The host's server
 *   reads it at the manifest's public path, so it is copied into the monolith's served build, at
 *   `_remotes/{remote}/prerender/`, and its digest goes into the manifest.
 *
 * The manifest preload the host's server writes points at the bench's static server, which the
 * page does not reach (a blocked origin, as the federated remotes are for the monolith).
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { REMOTE_NAMES, REMOTES, type RemoteName } from 'shared/remotes';
import { MONOLITH_CHUNKS_FILE } from './paths';

/** The monolith's scripts for each exposed module, by `remote/Module`. */
export type MonolithChunks = Record<string, string[]>;

/** What the host's server reads of a manifest (shared/remote-manifest, host/server/remote-sources). */
export interface MonolithManifest {
  name: string;
  metaData: { publicPath: string; remoteEntry: { name: string; path: string; type: 'global' } };
  exposes: { name: string; assets: { js: { sync: string[]; async: string[] } } }[];
  shared: never[];
  integrity: Record<string, string>;
}

/**
 * One remote's manifest over the monolith's chunks. The host's server preloads a "remote entry"
 * with every page of the remote; the monolith has none, so its first chunk stands in (the
 * preloads are deduplicated). A remote none of whose modules has chunks gets no manifest.
 */
export function monolithManifest(
  remote: RemoteName,
  chunks: MonolithChunks,
  publicPath: string,
  integrityOf: (file: string) => string,
  /** Files besides the chunks whose digest the manifest gives (the render bundle). */
  extraFiles: readonly string[] = [],
): MonolithManifest | undefined {
  const exposes = Object.keys(REMOTES[remote].exposes).flatMap((module) => {
    const files = chunks[`${remote}/${module}`];
    return files && files.length > 0 ? [{ name: module, assets: { js: { sync: files, async: [] } } }] : [];
  });
  const entry = exposes[0]?.assets.js.sync[0];
  if (entry === undefined) return undefined;
  const files = [...new Set([...exposes.flatMap((expose) => expose.assets.js.sync), ...extraFiles])];
  return {
    name: remote,
    metaData: { publicPath, remoteEntry: { name: entry, path: '', type: 'global' } },
    exposes,
    shared: [],
    integrity: Object.fromEntries(files.map((file) => [file, integrityOf(file)])),
  };
}

/** A prerendered page of the federated remote, as the monolith's build rendered it: only the build id differs. */
export function asMonolithPrerender(published: unknown, buildId: string): unknown {
  if (typeof published !== 'object' || published === null) throw new Error('a prerendered page is not an object');
  return { ...published, buildId };
}

function sha384(file: string): string {
  return `sha384-${createHash('sha384').update(readFileSync(file)).digest('base64')}`;
}

/**
 * Writes each remote's folder for the server-rendered monolith into `outDir`, from the monolith's
 * build (`monolithDist`) and the federated remotes' builds (`federatedDir`, their prerendered
 * pages); `publicPath`: where the monolith's server serves its scripts.
 */
export function writeMonolithRemotes(
  monolithDist: string,
  federatedDir: string,
  outDir: string,
  publicPath: string,
): void {
  const chunks = JSON.parse(readFileSync(join(monolithDist, MONOLITH_CHUNKS_FILE), 'utf8')) as MonolithChunks;
  const { id: buildId } = JSON.parse(readFileSync(join(monolithDist, '_app', 'builds', 'latest.json'), 'utf8')) as {
    id: string;
  };
  rmSync(outDir, { recursive: true, force: true });
  for (const remote of REMOTE_NAMES) {
    const dir = join(outDir, remote);
    mkdirSync(join(dir, 'builds'), { recursive: true });
    writeFileSync(join(dir, 'builds', 'latest.json'), JSON.stringify({ id: buildId }));
    const prerender = join(federatedDir, REMOTES[remote].packageDir, 'dist', 'prerender');
    const renderScript = existsSync(prerender) ? copyRenderBundle(remote, prerender, monolithDist) : undefined;
    const integrityOf = (file: string) => sha384(join(monolithDist, file));
    const extra = renderScript ? [renderScript] : [];
    const manifest = monolithManifest(remote, chunks, publicPath, integrityOf, extra);
    if (manifest) writeFileSync(join(dir, 'mf-manifest.json'), JSON.stringify(manifest));
    if (!existsSync(prerender)) continue;
    mkdirSync(join(dir, 'prerender'), { recursive: true });
    for (const name of readdirSync(prerender)) {
      if (RENDER_FILES.includes(name)) continue;
      if (name.endsWith('.json')) {
        const published: unknown = JSON.parse(readFileSync(join(prerender, name), 'utf8'));
        writeFileSync(join(dir, 'prerender', name), JSON.stringify(asMonolithPrerender(published, buildId)));
      } else {
        cpSync(join(prerender, name), join(dir, 'prerender', name));
      }
    }
  }
}

/** The render bundle and its styles, as the host's server reads them (host/server/remote-renderers.ts). */
const RENDER_FILES = ['render.js', 'render.css'];

/** Where the monolith's served build holds a remote's render bundle, from its root. */
export function renderBundleDir(remote: RemoteName): string {
  return `_remotes/${remote}/prerender`;
}

/** Copies the federated remote's render bundle into the monolith's build; the script's path, if there is one. */
function copyRenderBundle(remote: RemoteName, prerender: string, monolithDist: string): string | undefined {
  if (!existsSync(join(prerender, RENDER_FILES[0] ?? ''))) return undefined;
  const dir = renderBundleDir(remote);
  mkdirSync(join(monolithDist, dir), { recursive: true });
  for (const name of RENDER_FILES) {
    if (existsSync(join(prerender, name))) cpSync(join(prerender, name), join(monolithDist, dir, name));
  }
  return `${dir}/${RENDER_FILES[0]}`;
}

const TYPES: Record<string, string> = { '.json': 'application/json', '.css': 'text/css' };

/** Serves `dir`'s files (GET only) on 127.0.0.1:`port`, for the host's server of the server-rendered monolith. */
export function serveMonolithRemotes(dir: string, port: number): Promise<Server> {
  const server = createServer((request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname));
    const file = join(dir, path);
    if (
      request.method !== 'GET' ||
      !file.startsWith(`${dir}/`) ||
      !statSync(file, { throwIfNoEntry: false })?.isFile()
    ) {
      response.writeHead(404).end();
      return;
    }
    const body = readFileSync(file);
    response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}
