/**
 * What a worker changes when it moves on to the next test file (servers.ts, `useServerSet`): the
 * servers it stops and those it then starts, so that its set is what the file asked for and
 * nothing the previous file changed is left. Pure, so that it is tested on its own.
 */
import { isDeepStrictEqual } from 'node:util';
import { SERVER_NAMES, type ServerName } from './test-env';

/** Environment overrides; `undefined` removes a variable. */
export type EnvOverrides = Record<string, string | undefined>;

export interface StartOptions {
  env?: EnvOverrides;
  /**
   * Run the part from this folder instead of its package (a copy made by `copyPartBuild`, whose
   * built files a test changes without touching what other workers serve).
   */
  packageDir?: string;
  /** Resolve once the process has spawned, without waiting for it to serve. */
  noWait?: boolean;
}

/** How a file wants the worker's servers (`test.use({ serverOptions })`, fixtures.ts). */
export interface ServerSetOptions {
  /** Per-server start options, such as the host's third-party settings. */
  servers?: Partial<Record<ServerName, StartOptions>>;
  /** The servers to start, all of them by default; `[]` for a file that starts its own. */
  only?: readonly ServerName[];
  /** Servers left out stay up, idle, for a file that needs neither their ports nor their absence. */
  leaveIdle?: boolean;
}

/** A server as it runs: how it was started. */
export interface ServerState {
  name: ServerName;
  env: EnvOverrides;
  packageDir?: string;
}

export interface ServerPlan {
  /** Running servers the file does not want, or wants started otherwise. */
  stop: ServerName[];
  /** The servers to start then: those wanted that are not running, or were just stopped. */
  start: ServerName[];
}

export function planServerSet(running: readonly ServerState[], options: ServerSetOptions): ServerPlan {
  const wanted = options.only ?? SERVER_NAMES;
  const settings = options.servers ?? {};
  const stop = running
    .filter((server) =>
      wanted.includes(server.name)
        ? !isDeepStrictEqual(server.env, settings[server.name]?.env ?? {}) ||
          server.packageDir !== settings[server.name]?.packageDir
        : !options.leaveIdle,
    )
    .map((server) => server.name);
  const keep = new Set(running.map((server) => server.name).filter((name) => !stop.includes(name)));
  return { stop, start: wanted.filter((name) => !keep.has(name)) };
}
