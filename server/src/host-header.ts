/** The one reading of a Host header for every server of ours; decision 50 gives the rule. */

/** The longest name DNS allows (RFC 1035), without the final dot, and the longest of its labels. */
export const MAX_HOSTNAME_LENGTH = 253;
const MAX_LABEL_LENGTH = 63;

const LABELS = String.raw`[a-z0-9_-]+(?:\.[a-z0-9_-]+)*`;
const IPV6 = String.raw`\[[0-9a-f:.]+\]`;
export const HOSTNAME_PATTERN = `(?:${LABELS}\\.?|${IPV6})`;
const HOST_HEADER = new RegExp(`^(${HOSTNAME_PATTERN})(?::(\\d{1,5}))?$`);
const MAX_HOST_HEADER_LENGTH = MAX_HOSTNAME_LENGTH + ':65535'.length + 1;

export interface HostHeader {
  /** Lower-case, a final dot kept, an IPv6 address in its brackets (as `URL.hostname` has it). */
  hostname: string;
  port: number | undefined;
}

function withinDnsLimits(hostname: string): boolean {
  if (hostname.startsWith('[')) return true;
  const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  return name.length <= MAX_HOSTNAME_LENGTH && name.split('.').every((label) => label.length <= MAX_LABEL_LENGTH);
}

/** The hostname and port a Host header names; undefined when it is missing or names no host. */
export function parseHostHeader(host: string | undefined): HostHeader | undefined {
  if (host === undefined || host.length > MAX_HOST_HEADER_LENGTH) return undefined;
  const match = HOST_HEADER.exec(host.toLowerCase());
  const [, hostname, port] = match ?? [];
  if (hostname === undefined || !withinDnsLimits(hostname)) return undefined;
  const portNumber = port === undefined ? undefined : Number(port);
  if (portNumber !== undefined && portNumber > 65535) return undefined;
  return { hostname, port: portNumber };
}

/** The hostname of a Host header (`127.0.0.1:3004` → `127.0.0.1`); undefined when it names no host. */
export function hostnameOfHost(host: string | undefined): string | undefined {
  return parseHostHeader(host)?.hostname;
}

/**
 * Whether a request's Host header may be answered: one that names a host, or none at all
 * (HTTP/1.0; Node's server itself refuses an HTTP/1.1 request without one).
 */
export function isValidHost(host: string | undefined): boolean {
  return host === undefined || parseHostHeader(host) !== undefined;
}
