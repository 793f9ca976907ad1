/**
 * The site `npm run nginx-config` renders, on Debian's nginx, in front of stand-ins for the API
 * processes and the host's server on loopback: for tests of how nginx treats what is behind it.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from 'testbed/free-port';
import { startSiteFile, type RunningNginx } from 'testbed/nginx';
import { stopProcess } from 'testbed/process';
import { renderNginxConfig } from '../nginx/render-config';

export interface StandInSite {
  /** nginx's public origin. */
  origin: string;
  stop(): Promise<void>;
}

/**
 * nginx balancing the API over `apiPorts` and pages over the host's server on `hostPort` (a free
 * port nothing listens on unless given), with an empty host folder and remotes folder.
 */
export async function startStandInSite(
  name: string,
  { apiPorts, hostPort }: { apiPorts: readonly number[]; hostPort?: number },
): Promise<StandInSite> {
  const dir = mkdtempSync(join(tmpdir(), `${name}-`));
  mkdirSync(join(dir, 'dist'));
  mkdirSync(join(dir, 'remotes'));
  try {
    const [port, statusPort] = [await freePort(), await freePort()];
    const nginx: RunningNginx = await startSiteFile(
      dir,
      renderNginxConfig({
        GIFT_BOX_API_SERVERS: apiPorts.map((apiPort) => `127.0.0.1:${apiPort}`).join(','),
        GIFT_BOX_HOST_SERVERS: `127.0.0.1:${hostPort ?? (await freePort())}`,
        GIFT_BOX_HOST_DIST: join(dir, 'dist'),
        GIFT_BOX_REMOTES_DIR: join(dir, 'remotes'),
        GIFT_BOX_LISTEN: `127.0.0.1:${port}`,
        GIFT_BOX_STATUS_PORT: String(statusPort),
        GIFT_BOX_ACCESS_LOG: 'off',
      }),
      statusPort,
    );
    return {
      origin: `http://127.0.0.1:${port}`,
      async stop() {
        await stopProcess(nginx);
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
