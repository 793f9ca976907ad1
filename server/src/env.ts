/** Reads process environment settings, failing with a message that names the variable. */
import { statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { DEFAULT_PORTS, type PartName } from 'shared/ports';
import { anyHostnameOnPort, type AllowedOrigin } from './origins';

export class EnvError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EnvError';
  }
}

type Env = Record<string, string | undefined>;

export function readPort(part: PartName, env: Env = process.env): number {
  const { env: name, port } = DEFAULT_PORTS[part];
  const raw = env[name];
  if (raw === undefined || raw === '') return port;
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(value) || value < 1 || value > 65535) {
    throw new EnvError(`${name} must be a port number between 1 and 65535, got "${raw}"`);
  }
  return value;
}

export function readInt(name: string, fallback: number, env: Env = process.env): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(value) || value < 1) {
    throw new EnvError(`${name} must be a positive whole number, got "${raw}"`);
  }
  return value;
}

/** The http(s) origin of `raw` (`https://example.com/path` → `https://example.com`), if it has one. */
export function httpOrigin(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
}

/**
 * The origin visitors load the host from (HOST_ORIGIN); the remotes and the API allow it through
 * CORS. Unset, the development default: the host's port on whatever hostname the page was opened
 * at (see `isAllowedOrigin`).
 */
export function readHostOrigin(env: Env = process.env): AllowedOrigin {
  const raw = env.HOST_ORIGIN;
  if (raw === undefined || raw === '') return anyHostnameOnPort(readPort('host', env));
  const origin = httpOrigin(raw);
  if (!origin) throw new EnvError(`HOST_ORIGIN must be an origin such as http://localhost:3000, got "${raw}"`);
  return origin;
}

/**
 * The folder a remote's server serves: `STATIC_ROOT` (an absolute path to an existing folder,
 * such as a deploy target) or the package's own build folder.
 */
export function readStaticRoot(defaultRoot: string, env: Env = process.env): string {
  const raw = env.STATIC_ROOT;
  if (raw === undefined || raw === '') return defaultRoot;
  if (!isAbsolute(raw)) throw new EnvError(`STATIC_ROOT must be an absolute path, got "${raw}"`);
  let isDirectory = false;
  try {
    isDirectory = statSync(raw).isDirectory();
  } catch {
    isDirectory = false;
  }
  if (!isDirectory) throw new EnvError(`STATIC_ROOT must be an existing folder, got "${raw}"`);
  return raw;
}

/**
 * After SIGTERM, how long the host's and remotes' servers keep serving while their health route
 * answers 503 (`SHUTDOWN_DELAY_MS`, as for the API): time for a load balancer to notice.
 */
export function readShutdownDelay(env: Env = process.env): number {
  const raw = env.SHUTDOWN_DELAY_MS;
  if (raw === undefined || raw === '') return 0;
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= 0 && value <= 120_000)) {
    throw new EnvError(`SHUTDOWN_DELAY_MS must be a whole number of milliseconds from 0 to 120000, got "${raw}"`);
  }
  return value;
}

/**
 * The address the host's and remotes' servers listen on (`LISTEN_HOST`, such as 127.0.0.1
 * behind a reverse proxy); undefined, every interface, when unset.
 */
export function readListenHost(env: Env = process.env): string | undefined {
  const raw = env.LISTEN_HOST?.trim();
  return raw === undefined || raw === '' ? undefined : raw;
}
