/**
 * The parts' build files as their servers publish them, on a real HTTP server on loopback: the
 * host's `/_app/builds/latest.json`, each remote's `/<remote>/builds/latest.json`, and the
 * `history.json` deploys write beside it; and each remote's `/<remote>/mf-manifest.json` (and a
 * build's own copy, `/<remote>/builds/<id>/mf-manifest.json`). What the API reads to know the
 * published builds and routes.
 */
import { createServer, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';
import { type DeploymentState } from 'shared/deployment';
import { buildManifestUrl } from 'shared/deployment';
import { PARTS } from 'shared/telemetry';

type PartName = string;

export interface PartsServer {
  /** Each part's `builds/latest.json` URL (the API's `builds.sources`). */
  sources: Record<PartName, string>;
  /** Each remote's `mf-manifest.json` URL. */
  manifests: Record<PartName, string>;
  /** Publishes the remote's manifest, of its stable build at its root or, with `build`, of that build's own copy. */
  publishManifest(remote: PartName, manifest: unknown, build?: string): void;
  /**
   * Publishes the part's current build, and optionally its history (newest first) and the rest
   * of its deployment (`shared/deployment`: the build before it, a canary).
   */
  publish(part: PartName, id: string, history?: string[], deployment?: Omit<DeploymentState, 'id' | 'timestamp'>): void;
  /**
   * The part answers every request with this status (a part down, or broken) until published
   * again; `'never'`: it takes requests and never answers.
   */
  fail(part: PartName, status: number | 'never'): void;
  /**
   * The part's `builds/latest.json` answers 200 with a body that never ends, until the reader
   * closes the connection (`closed`).
   */
  flood(part: PartName): { closed: Promise<void> };
  /** Paths requested so far, in order. */
  requests: string[];
  close(): Promise<void>;
}

const folderOf = (part: PartName) => (part === 'host' ? '/_app/builds' : `/${part}/builds`);

const FLOOD_CHUNK = Buffer.alloc(16 * 1024, ' ');

/** Writes spaces as fast as the reader takes them, until it closes the connection. */
function flood(response: ServerResponse, closed: () => void): void {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.on('close', closed);
  const write = () => {
    while (!response.destroyed && response.write(FLOOD_CHUNK));
  };
  response.on('drain', write);
  write();
}

/** `added`: remotes beyond the registry's, served as theirs are. */
export async function startPartsServer(added: readonly string[] = []): Promise<PartsServer> {
  const all: string[] = [...PARTS, ...added];
  const files = new Map<string, string>();
  const failing = new Map<PartName, number | 'never' | 'flood'>();
  let floodClosed: () => void = () => undefined;
  const requests: string[] = [];
  const server = createServer((request, response) => {
    const path = request.url ?? '';
    requests.push(path);
    const part = all.find((candidate) =>
      path.startsWith(candidate === 'host' ? `${folderOf(candidate)}/` : `/${candidate}/`),
    );
    const status = part === undefined ? undefined : failing.get(part);
    const body = files.get(path);
    if (status === 'never') return;
    if (status === 'flood') return flood(response, () => floodClosed());
    if (status !== undefined) response.writeHead(status).end('failing');
    else if (body === undefined) response.writeHead(404).end('Not Found');
    else response.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const remotes = all.filter((part) => part !== 'host');
  const manifestOf = (remote: string) => `${base}/${remote}/mf-manifest.json`;
  return {
    sources: Object.fromEntries(all.map((part) => [part, `${base}${folderOf(part)}/latest.json`])),
    manifests: Object.fromEntries(remotes.map((remote) => [remote, manifestOf(remote)])),
    publishManifest(remote, manifest, build) {
      const url = build === undefined ? manifestOf(remote) : buildManifestUrl(manifestOf(remote), build);
      files.set(new URL(url).pathname, JSON.stringify(manifest));
    },
    publish(part, id, history, deployment) {
      failing.delete(part);
      files.set(`${folderOf(part)}/latest.json`, JSON.stringify({ id, timestamp: Date.now(), ...deployment }));
      if (history) files.set(`${folderOf(part)}/history.json`, JSON.stringify({ ids: history }));
    },
    fail(part, status) {
      failing.set(part, status);
    },
    flood(part) {
      failing.set(part, 'flood');
      return { closed: new Promise<void>((resolve) => (floodClosed = resolve)) };
    },
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
