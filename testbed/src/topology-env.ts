/** The environment every server of one topology reads, for the browser suite and the benches. */
import { DEFAULT_PORTS, type PartName } from 'shared/ports';
import { REMOTE_NAMES, REMOTES, type RemoteName } from 'shared/remotes';

export type { PartName };

export function portsEnv(ports: Partial<Record<PartName, number>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(ports).map(([part, port]) => [DEFAULT_PORTS[part as PartName].env, String(port)]),
  );
}

export function remoteUrlsEnv(manifestUrl: (remote: RemoteName) => string): Record<string, string> {
  return Object.fromEntries(REMOTE_NAMES.map((remote) => [REMOTES[remote].urlEnv, manifestUrl(remote)]));
}

/** Every play a win; the limits far above what a run from one address asks. */
export const OPEN_API_LIMITS: Readonly<Record<string, string>> = Object.freeze({
  GAME_WIN_RATE: '1',
  PLAYS_PER_VISITOR_PER_DAY: '1000',
  PLAYS_PER_IP_PER_DAY: '10000',
  REDEEM_ATTEMPTS_PER_IP_PER_MINUTE: '1000',
  REDEEM_OPENS_PER_IP_PER_MINUTE: '1000',
  UNKNOWN_REDEEM_READS_PER_IP_PER_MINUTE: '1000',
  LOG_LEVEL: 'warn',
});

export interface TopologySecrets {
  visitorCookie: string;
  pageTicket: string;
}

export interface TopologyEnvOptions {
  ports?: Partial<Record<PartName, number>>;
  hostOrigin?: string;
  apiBaseUrl?: string;
  /** None leaves the development default, which follows the page's address. */
  manifestUrl?: (remote: RemoteName) => string;
  secrets?: Partial<TopologySecrets>;
  openLimits?: boolean;
}

export function topologyEnv(options: TopologyEnvOptions): Record<string, string> {
  const { secrets = {} } = options;
  return {
    ...portsEnv(options.ports ?? {}),
    ...(options.manifestUrl ? remoteUrlsEnv(options.manifestUrl) : {}),
    ...(options.hostOrigin === undefined ? {} : { HOST_ORIGIN: options.hostOrigin }),
    ...(options.apiBaseUrl === undefined ? {} : { API_BASE_URL: options.apiBaseUrl }),
    ...(secrets.visitorCookie === undefined ? {} : { VISITOR_COOKIE_SECRETS: secrets.visitorCookie }),
    ...(secrets.pageTicket === undefined ? {} : { PAGE_TICKET_SECRETS: secrets.pageTicket }),
    ...(options.openLimits ? OPEN_API_LIMITS : {}),
  };
}
