/**
 * A route's floor on the emulated network: the least time its first paint could take if the
 * page cost nothing but its HTML's bytes. DevTools' emulation (browser.ts, THROTTLING) adds
 * its latency once to each request and passes the response's bytes at the download rate; on
 * loopback there is no DNS lookup, and connecting costs nothing the emulation adds, so the
 * first byte of the document is one emulated round trip away (TCP connect and request together
 * count as that one), and the document is complete once its bytes as received (headers and
 * gzip body) have passed at that rate. FCP ÷ floor says how far a page is from the speed of its
 * bytes. The floor leaves out the emulated CPU: the renderer's own work between the last byte
 * and the first paint, which even an empty page needs (empty-page.ts), so FCP ÷ floor is read
 * against the empty page's.
 */

export interface EmulatedNetwork {
  latencyMs: number;
  downloadBitsPerSecond: number;
}

/** The round trips before the document's first byte, as DevTools' emulation applies its latency. */
export const FIRST_BYTE_ROUND_TRIPS = 1;

/** ms: the first byte's round trips plus the HTML's bytes (as received) at the emulated bandwidth. */
export function floorMs(htmlBytes: number, network: EmulatedNetwork, roundTrips = FIRST_BYTE_ROUND_TRIPS): number {
  if (!Number.isFinite(htmlBytes) || htmlBytes <= 0) return Number.NaN;
  return roundTrips * network.latencyMs + (htmlBytes * 8 * 1000) / network.downloadBitsPerSecond;
}
