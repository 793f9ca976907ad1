/**
 * The least time a first paint could take if the page cost only its HTML's bytes on the emulated
 * network; FCP ÷ floor is read against the empty page's (bench/README.md).
 */

export interface EmulatedNetwork {
  latencyMs: number;
  downloadBitsPerSecond: number;
}

export const FIRST_BYTE_ROUND_TRIPS = 1;

export function floorMs(htmlBytes: number, network: EmulatedNetwork, roundTrips = FIRST_BYTE_ROUND_TRIPS): number {
  if (!Number.isFinite(htmlBytes) || htmlBytes <= 0) return Number.NaN;
  return roundTrips * network.latencyMs + (htmlBytes * 8 * 1000) / network.downloadBitsPerSecond;
}
