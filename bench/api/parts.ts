/**
 * The parts' deployments served on loopback, so the bench's API processes know real build ids and
 * never read the default ports, where someone's own site may run.
 */
import { createServer } from 'node:http';
import { type AddressInfo } from 'node:net';
import { REMOTE_NAMES, REMOTES, type RemoteName } from 'shared/remotes';

export type PartName = 'host' | RemoteName;
const PARTS: readonly PartName[] = ['host', ...REMOTE_NAMES];

export interface Parts {
  env: Record<string, string>;
  hostOrigin: string;
  builds: Record<PartName, string[]>;
  close(): Promise<void>;
}

const BUILDS_PER_PART = 3;

export async function startParts(): Promise<Parts> {
  const builds = Object.fromEntries(
    PARTS.map((part) => [part, Array.from({ length: BUILDS_PER_PART }, (_, n) => `${part}-b${BUILDS_PER_PART - n}`)]),
  ) as Record<PartName, string[]>;
  const folder = (part: PartName) => (part === 'host' ? '/_app/builds' : `/${part}/builds`);
  const files = new Map<string, string>(
    PARTS.map((part) => {
      const [id, previous, canary] = builds[part];
      const deployment = { id, timestamp: Date.now(), previous, canary: { id: canary, percent: 10, since: 0 } };
      return [`${folder(part)}/latest.json`, JSON.stringify(deployment)];
    }),
  );
  const server = createServer((request, response) => {
    const body = files.get(request.url ?? '');
    if (body === undefined) response.writeHead(404).end();
    else response.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const hostOrigin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    env: {
      HOST_ORIGIN: hostOrigin,
      // One public origin, as behind nginx: the API's is the host's.
      API_BASE_URL: hostOrigin,
      ...Object.fromEntries(
        REMOTE_NAMES.map((name) => [REMOTES[name].urlEnv, `${hostOrigin}/${name}/mf-manifest.json`]),
      ),
    },
    hostOrigin,
    builds,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
