/**
 * Serial round trips: the depth of the longest chain of requests where each one could only be
 * sent once an earlier one had answered. The browser does not say which response some code was
 * waiting for, so a request B is taken to depend on an earlier request A when:
 *
 *   - A is B's initiator: the document whose parser found B, or a script on B's initiator call
 *     stack (the code that asked for B had to be downloaded first). A needs only to have been
 *     sent before B: a streaming document or script can start B before it has finished; or
 *   - A is the document or a data request (fetch/XHR: `/config.json`, a federation manifest,
 *     a page's payload or API call) that had finished before B was sent: code may have awaited
 *     it. A script that had finished earlier but is not on B's stack is not counted, so chunks
 *     that merely loaded earlier do not lengthen every later chain.
 *
 * depth(B) = 1 + the greatest depth among the requests it depends on (1 for the document). This
 * can overcount when an unrelated fetch happened to finish just before B was sent, and it cannot
 * see a dependency through a script that is not on B's synchronous stack (an `await` in another
 * chunk); on this app's pages the chains it finds are the ones the code reads as.
 */

export type RequestKind = 'document' | 'script' | 'data' | 'other';

export interface TimedRequest {
  id: string;
  url: string;
  kind: RequestKind;
  /** When it was sent, ms on one clock for every request. */
  sentAt: number;
  /** When its response had fully arrived (or it failed); undefined while still loading. */
  finishedAt?: number;
  /** URLs of its initiator: the parsing document, or the scripts on its initiator call stack. */
  initiatorUrls: readonly string[];
}

/** Each request's depth, by id. */
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

/**
 * The longest chain among the requests that had finished by `until` (the moment the page's
 * content was visible): requests still loading then cannot have been needed for it.
 */
export function serialRoundTrips(requests: readonly TimedRequest[], until: number): number {
  const depths = chainDepths(requests);
  let longest = 0;
  for (const request of requests) {
    if (request.finishedAt === undefined || request.finishedAt > until) continue;
    longest = Math.max(longest, depths.get(request.id) ?? 0);
  }
  return longest;
}
