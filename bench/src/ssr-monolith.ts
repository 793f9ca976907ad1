/**
 * The server-rendered monolith: the monolith build served by the host's server with what it gives
 * federated pages (prerendered markup and data, inline configuration, preloads), as a Nuxt or
 * Next build would render them. Each "remote" is a folder of the monolith's own files (a manifest
 * over its chunks, the remote's prerendered pages, its render bundle) served to the host's server
 * only; docs/benchmarks.md describes the comparison.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { REMOTE_NAMES, REMOTES, type RemoteName } from 'shared/remotes';
import { MONOLITH_CHUNKS_FILE } from './paths';

export type MonolithChunks = Record<string, string[]>;

export interface MonolithManifest {
  name: string;
  metaData: { publicPath: string; remoteEntry: { name: string; path: string; type: 'global' } };
  exposes: { name: string; assets: { js: { sync: string[]; async: string[] } } }[];
  shared: never[];
  integrity: Record<string, string>;
}

/** The host's server preloads a remote entry with every page; the monolith's first chunk stands in. */
export function monolithManifest(
  remote: RemoteName,
  chunks: MonolithChunks,
  publicPath: string,
  integrityOf: (file: string) => string,
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

export function asMonolithPrerender(published: unknown, buildId: string): unknown {
  if (typeof published !== 'object' || published === null) throw new Error('a prerendered page is not an object');
  return { ...published, buildId };
}

function sha384(file: string): string {
  return `sha384-${createHash('sha384').update(readFileSync(file)).digest('base64')}`;
}

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

const RENDER_FILES = ['render.js', 'render.css'];

export function renderBundleDir(remote: RemoteName): string {
  return `_remotes/${remote}/prerender`;
}

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
