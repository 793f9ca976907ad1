/**
 * The built host's server with the three remotes' built servers, on free loopback ports, as the
 * page benches that need no API or browser start them: the host reads each remote's build and
 * prerendered pages, so its pages are the ones visitors get. `npm run build` first.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { REMOTE_NAMES, REMOTES, type RemoteName } from 'shared/remotes';
import { freePort } from 'testbed/free-port';
import { startServer, stopProcess, type RunningProcess } from 'testbed/process';
import { topologyEnv } from 'testbed/topology-env';

export const ROOT = resolve(__dirname, '..', '..');
export const HOST_SERVER = join(ROOT, 'host', 'dist-server', 'main.js');

export interface HostWithRemotes {
  origin: string;
  /** The host server's node process (under its process guard), whose CPU time a bench reads. */
  hostPid: number;
  stop(): Promise<void>;
}

/** The process the guard runs: its only child. */
function guardedPid(guard: RunningProcess): number {
  const children = readFileSync(`/proc/${guard.pid}/task/${guard.pid}/children`, 'utf8').trim().split(/\s+/);
  const pid = Number(children[0]);
  if (children.length !== 1 || !Number.isInteger(pid)) throw new Error(`${guard.name}: no single child process`);
  return pid;
}

/** Starts the remotes' servers and the host's (`server`: its main.js), and waits for `readyPath`'s prerendered page. */
export async function startHostWithRemotes(server = HOST_SERVER, readyPath = '/about'): Promise<HostWithRemotes> {
  const ports: Record<RemoteName, number> = Object.fromEntries(
    await Promise.all(REMOTE_NAMES.map(async (name) => [name, await freePort()])),
  );
  const [hostPort, metricsPort] = [await freePort(), await freePort()];
  const origin = `http://127.0.0.1:${hostPort}`;
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    NODE_ENV: 'production',
    LISTEN_HOST: '127.0.0.1',
    // A production host needs an API address (nothing listens there) and a ticket secret.
    ...topologyEnv({
      ports: { host: hostPort, ...ports },
      hostOrigin: origin,
      apiBaseUrl: `http://127.0.0.1:${await freePort()}`,
      manifestUrl: (name) => `http://127.0.0.1:${ports[name]}/mf-manifest.json`,
      secrets: { pageTicket: 'bench-page-ticket-secret-not-for-production' },
    }),
  };
  const started: RunningProcess[] = [];
  const stop = async () => {
    await Promise.all(started.map((running) => stopProcess(running)));
  };
  try {
    for (const name of REMOTE_NAMES) {
      const dir = join(ROOT, REMOTES[name].packageDir);
      started.push(
        await startServer({
          name: `the ${name} remote's server`,
          command: process.execPath,
          args: [join(dir, 'dist-server', 'main.js')],
          cwd: dir,
          env,
          output: 'pipe',
          exitWithParent: true,
          health: `http://127.0.0.1:${ports[name]}/healthz`,
        }),
      );
    }
    const host = await startServer({
      name: "the host's server",
      command: process.execPath,
      args: [server],
      cwd: join(ROOT, 'host'),
      // Its metrics on a port of its own: each server would listen on METRICS_PORT.
      env: { ...env, METRICS_PORT: String(metricsPort) },
      output: 'pipe',
      exitWithParent: true,
      health: `${origin}/healthz`,
    });
    started.push(host);
    await untilPrerendered(origin, metricsPort, readyPath);
    return { origin, hostPid: guardedPid(host), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Waits until the host's server sends `path` with its remote's prerendered markup (it reads the
 * remotes after it starts), as its own metrics say: giftbox_prerender_hits_total's `hit`.
 */
async function untilPrerendered(origin: string, metricsPort: number, path: string): Promise<void> {
  const hit = `giftbox_prerender_hits_total{route="${path}",outcome="hit",`;
  for (let attempt = 0; attempt < 200; attempt += 1) {
    await (await fetch(`${origin}${path}`, { headers: { accept: 'text/html' } })).text();
    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    if (metrics.includes(hit)) return;
    await delay(100);
  }
  throw new Error(`${origin}${path} never carried its remote's prerendered markup`);
}
