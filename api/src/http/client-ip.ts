/**
 * The address the abuse limits count: IPv4 as is (also when IPv4-mapped), IPv6 by its /64
 * prefix, since one subscriber usually holds a whole /64. Coarser groups (`subjectGroups`) are for
 * a table that is filling up: a client with many addresses is then counted by its network.
 */
import { isIPv6 } from 'node:net';

function expandIpv6(address: string): string[] {
  const [head = '', tail] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(missing).fill('0'), ...right];
}

const mappedIpv4 = (ip: string) => /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];

/** The first `bits` (a multiple of 8 up to 64) of an IPv6 address, as `2001:db8:1::/48`. */
function ipv6Prefix(ip: string, bits: 48 | 56 | 64): string {
  const groups = expandIpv6(ip.toLowerCase().split('%')[0] ?? ip).map((group) => parseInt(group || '0', 16) || 0);
  const kept = groups.slice(0, 4);
  if (bits === 48) kept[3] = 0;
  if (bits === 56) kept[3] = (kept[3] ?? 0) & 0xff00;
  const text = kept.map((group) => group.toString(16)).join(':');
  return bits === 64 ? `${text}::/64` : `${text}::/${bits}`;
}

export function limitSubject(ip: string): string {
  const mapped = mappedIpv4(ip);
  if (mapped) return mapped;
  if (!isIPv6(ip)) return ip;
  return ipv6Prefix(ip, 64);
}

/**
 * The subjects an address may be counted as at three levels, finest first: IPv6 by /64, /56 and
 * /48; IPv4 by the address, the address again and its /24. A provider hands a subscriber a /56 or
 * a /48; an IPv4 /24 is one network, and many subscribers share an IPv4 address already.
 */
export function subjectGroups(ip: string): [string, string, string] {
  const ipv4 = mappedIpv4(ip) ?? (isIPv6(ip) ? undefined : ip);
  if (ipv4 === undefined) return [ipv6Prefix(ip, 64), ipv6Prefix(ip, 56), ipv6Prefix(ip, 48)];
  const octets = ipv4.split('.');
  return [ipv4, ipv4, octets.length === 4 ? `${octets.slice(0, 3).join('.')}.0/24` : ipv4];
}
