/**
 * Serial round trips: the longest chain of requests each sent after an earlier one answered (its
 * initiator, or a finished document or data request). bench/README.md says what it misses.
 */

export type RequestKind = 'document' | 'script' | 'data' | 'other';

export interface TimedRequest {
  id: string;
  url: string;
  kind: RequestKind;
  sentAt: number;
  finishedAt?: number;
  initiatorUrls: readonly string[];
}

export function chainDepths(requests: readonly TimedRequest[]): Map<string, number> {
  const ordered = [...requests].sort((a, b) => a.sentAt - b.sentAt);
  const depths = new Map<string, number>();
  ordered.forEach((request, index) => {
    let deepest = 0;
    const initiators = new Set(request.initiatorUrls);
    for (const earlier of ordered.slice(0, index)) {
      const depth = depths.get(earlier.id) ?? 0;
      if (depth <= deepest || earlier.sentAt > request.sentAt) continue;
      const isInitiator = initiators.has(earlier.url) && earlier.sentAt < request.sentAt;
      const awaited =
        (earlier.kind === 'data' || earlier.kind === 'document') &&
        earlier.finishedAt !== undefined &&
        earlier.finishedAt <= request.sentAt;
      if (isInitiator || awaited) deepest = depth;
    }
    depths.set(request.id, deepest + 1);
  });
  return depths;
}

export function serialRoundTrips(requests: readonly TimedRequest[], until: number): number {
  const depths = chainDepths(requests);
  let longest = 0;
  for (const request of requests) {
    if (request.finishedAt === undefined || request.finishedAt > until) continue;
    longest = Math.max(longest, depths.get(request.id) ?? 0);
  }
  return longest;
}
