/**
 * The environment a whole topology's servers read (the host's, each remote's, the API's): where
 * each part listens, where pages reach the others, the secrets they share, and the API's limits
 * set out of a run's way. The browser suite's servers and nginx topology, its development loop
 * and the benches build theirs here.
 */
import { DEFAULT_PORTS, type PartName } from 'shared/ports';
import { REMOTE_NAMES, REMOTES, type RemoteName } from 'shared/remotes';

export type { PartName };

/** Each part's port (HOST_PORT, REMOTE_<NAME>_PORT, API_PORT) for the parts given. */
export function portsEnv(ports: Partial<Record<PartName, number>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(ports).map(([part, port]) => [DEFAULT_PORTS[part as PartName].env, String(port)]),
  );
}

/** Each remote's manifest URL (REMOTE_<NAME>_URL), as the host's server and the API read it. */
export function remoteUrlsEnv(manifestUrl: (remote: RemoteName) => string): Record<string, string> {
  return Object.fromEntries(REMOTE_NAMES.map((remote) => [REMOTES[remote].urlEnv, manifestUrl(remote)]));
}

/**
 * Every play a win and every per-visitor limit far above what a run asks: a test or bench loads
 * pages from one address much faster than a visitor would.
 */
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
  /** VISITOR_COOKIE_SECRETS of every API process. */
  visitorCookie: string;
  /** PAGE_TICKET_SECRETS of the host's server and every API process. */
  pageTicket: string;
}

export interface TopologyEnvOptions {
  /** The ports of the parts that listen on one (none moved when left out). */
  ports?: Partial<Record<PartName, number>>;
  /** The origin visitors open pages at (HOST_ORIGIN). */
  hostOrigin?: string;
  /** Where pages reach the API (API_BASE_URL). */
  apiBaseUrl?: string;
  /** Each remote's manifest URL; none named leaves the development default, which follows the page's address. */
  manifestUrl?: (remote: RemoteName) => string;
  secrets?: Partial<TopologySecrets>;
  /** OPEN_API_LIMITS, for a topology whose API takes a run's traffic. */
  openLimits?: boolean;
}

/** The variables every server of one topology is started with; each part reads those it knows. */
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
