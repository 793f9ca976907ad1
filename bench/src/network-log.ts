/** Every request of one page, from the DevTools protocol's Network events. */
import type { CDPSession } from 'playwright-core';
import type { RequestKind, TimedRequest } from './round-trips';

export interface RecordedRequest {
  id: string;
  url: string;
  kind: RequestKind;
  resourceType: string;
  sentAt: number;
  finishedAt?: number;
  status?: number;
  failed: boolean;
  blocked: boolean;
  /** A preloaded script is requested again when it runs, answered from the preload's copy. */
  fromCache: boolean;
  headerBytes: number;
  transferBytes: number;
  initiatorUrls: string[];
}

const KINDS: Record<string, RequestKind> = { Document: 'document', Script: 'script', Fetch: 'data', XHR: 'data' };

interface StackTrace {
  callFrames: { url: string }[];
  parent?: StackTrace;
}

function stackUrls(stack: StackTrace | undefined): string[] {
  const urls: string[] = [];
  for (let trace = stack; trace; trace = trace.parent) {
    for (const frame of trace.callFrames) if (frame.url) urls.push(frame.url);
  }
  return urls;
}

export class NetworkLog {
  readonly requests: RecordedRequest[] = [];
  private readonly byId = new Map<string, RecordedRequest>();
  private clock: { timestamp: number; epochMs: number } | undefined;

  constructor(cdp: CDPSession) {
    cdp.on('Network.requestWillBeSent', (event) => {
      if (!/^https?:/.test(event.request.url) || this.byId.has(event.requestId)) return;
      const epochMs = event.wallTime * 1000;
      this.clock ??= { timestamp: event.timestamp, epochMs };
      const { initiator } = event;
      const request: RecordedRequest = {
        id: event.requestId,
        url: event.request.url,
        kind: KINDS[event.type ?? ''] ?? 'other',
        resourceType: event.type ?? 'Other',
        sentAt: epochMs,
        failed: false,
        blocked: false,
        fromCache: false,
        headerBytes: 0,
        transferBytes: 0,
        initiatorUrls: [...(initiator.url ? [initiator.url] : []), ...stackUrls(initiator.stack)],
      };
      this.byId.set(request.id, request);
      this.requests.push(request);
    });
    cdp.on('Network.responseReceived', (event) => {
      const request = this.byId.get(event.requestId);
      if (!request) return;
      request.status = event.response.status;
      request.headerBytes = event.response.encodedDataLength;
      if (event.response.fromDiskCache || event.response.fromPrefetchCache) request.fromCache = true;
    });
    cdp.on('Network.requestServedFromCache', (event) => {
      const request = this.byId.get(event.requestId);
      if (request) request.fromCache = true;
    });
    cdp.on('Network.loadingFinished', (event) => {
      const request = this.byId.get(event.requestId);
      if (!request) return;
      request.finishedAt = this.epochMs(event.timestamp);
      request.transferBytes = event.encodedDataLength;
    });
    cdp.on('Network.loadingFailed', (event) => {
      const request = this.byId.get(event.requestId);
      if (!request) return;
      request.finishedAt = this.epochMs(event.timestamp);
      request.failed = true;
      request.blocked = event.blockedReason !== undefined;
    });
  }

  private epochMs(timestamp: number): number {
    return this.clock ? this.clock.epochMs + (timestamp - this.clock.timestamp) * 1000 : Number.NaN;
  }

  inFlight(): number {
    return this.requests.filter((request) => request.finishedAt === undefined).length;
  }

  async settle(quietMs: number, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let quietSince = Date.now();
    while (Date.now() < deadline) {
      if (this.inFlight() > 0) quietSince = Date.now();
      else if (Date.now() - quietSince >= quietMs) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

export function bodyBytes(request: RecordedRequest): number {
  return Math.max(0, request.transferBytes - request.headerBytes);
}

export function reachedServer(request: Pick<RecordedRequest, 'blocked' | 'fromCache'>): boolean {
  return !request.blocked && !request.fromCache;
}

export function succeeded(request: RecordedRequest): boolean {
  return !request.failed && request.status !== undefined && request.status < 400;
}

export function isCode(request: RecordedRequest): boolean {
  return request.kind === 'script' || new URL(request.url).pathname.endsWith('/mf-manifest.json');
}

export function timed(requests: readonly RecordedRequest[], originMs: number): TimedRequest[] {
  return requests.map((request) => ({
    id: request.id,
    url: request.url,
    kind: request.kind,
    sentAt: request.sentAt - originMs,
    finishedAt: request.finishedAt === undefined ? undefined : request.finishedAt - originMs,
    initiatorUrls: request.initiatorUrls,
  }));
}
