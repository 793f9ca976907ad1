/**
 * Where the suite runs: repository paths and the dedicated test ports, away from a developer's
 * `npm start` on 3000-3004. E2E_BASE_PORT moves them all (host on it, the others after it).
 */
import { join } from 'node:path';
import { REMOTE_NAMES as REGISTERED_REMOTES, REMOTES, type RemoteName as RegisteredRemote } from 'shared/remotes';

export const E2E_DIR = join(__dirname, '..');
export const ROOT_DIR = join(E2E_DIR, '..');

function basePort(): number {
  const raw = process.env.E2E_BASE_PORT;
  if (raw === undefined || raw === '') return 4300;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65530) {
    throw new Error(`E2E_BASE_PORT must be a port number up to 65530, got "${raw}"`);
  }
  return port;
}

const BASE = basePort();

/** Logs, browser profiles and API data, one folder per base port so runs side by side keep apart; gitignored. */
export const TMP_DIR = join(E2E_DIR, '.e2e-tmp', String(BASE));
export const LOG_DIR = join(TMP_DIR, 'logs');
export const PROFILE_DIR = join(TMP_DIR, 'profiles');
/** The API's embedded database for this run; emptied by the global setup. */
export const API_DATA_DIR = join(TMP_DIR, 'api-data');

/** The remotes are those of the registry (`shared/src/remotes.ts`). */
export type RemoteName = RegisteredRemote;
export type ServerName = 'host' | RemoteName | 'api';

export const REMOTE_NAMES: readonly RemoteName[] = REGISTERED_REMOTES;
export const SERVER_NAMES: readonly ServerName[] = ['host', ...REMOTE_NAMES, 'api'];

/** The host on BASE, the API on BASE + 4, each remote as far from BASE as its default port is from 3000. */
export const TEST_PORTS = {
  host: BASE,
  ...Object.fromEntries(REMOTE_NAMES.map((name) => [name, BASE + REMOTES[name].port - 3000])),
  api: BASE + 4,
} as Readonly<Record<ServerName, number>>;

export function originOf(name: ServerName): string {
  return `http://localhost:${TEST_PORTS[name]}`;
}

export const HOST_ORIGIN = originOf('host');

/** Where the host's runtime configuration points for a remote. */
export function manifestUrlOf(remote: RemoteName): string {
  return `${originOf(remote)}/mf-manifest.json`;
}

/** A valid gift or redeem id: 24 characters of [A-Za-z0-9_-]. */
export const VALID_ID = 'AAAAAAAAAAAAAAAAAAAAAAAA';
