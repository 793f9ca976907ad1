/**
 * What the API believes of a page's telemetry: only what the host's server signed in its ticket
 * (server/page-ticket.ts). A batch without a valid ticket is counted, but under no build: anyone
 * can post telemetry, and a stranger's `failed` loads must not abort a release or page someone.
 * A page's ticket vouches for one load outcome per remote: the rest of its loads count under no
 * build, so one page cannot be replayed into many failures.
 */
import { MAX_TICKET_LENGTH, type PageTicket, verifyTicket } from 'server/page-ticket';
import { HOST_PART, OTHER, UNKNOWN_BUILD } from 'shared/telemetry';
import { type BuildRegistry } from './build-registry';

/** Pages whose first load of a remote is remembered; past it, the oldest is forgotten. */
export const MAX_REMEMBERED_LOADS = 100_000;

/** The pages (ticket nonce and remote) that have had their load counted: a bounded, oldest-first map. */
export class FirstLoads {
  private readonly seen = new Set<string>();

  constructor(private readonly max = MAX_REMEMBERED_LOADS) {}

  /** True the first time a page's load of `remote` is told; false after. */
  take(nonce: string, remote: string): boolean {
    const key = `${nonce} ${remote}`;
    if (this.seen.has(key)) return false;
    this.seen.add(key);
    if (this.seen.size > this.max) this.seen.delete(this.seen.values().next().value as string);
    return true;
  }
}

/** The ticket of a batch, when one of `secrets` signed it and it is current; else undefined. */
export function ticketOf(token: string | undefined, secrets: readonly string[], nowMs: number): PageTicket | undefined {
  if (!token || token.length > MAX_TICKET_LENGTH || secrets.length === 0) return undefined;
  return verifyTicket(token, secrets, Math.floor(nowMs / 1000)).ticket;
}

/**
 * The build label of `build` of `part` on a page with `ticket`: a remote's build only when the
 * ticket names it (the build the page was given or its fallback) and its deployment names it
 * now; the host's own when its deployment names it. `unknown` stays; without a ticket, `other`.
 */
export function ticketedBuildLabel(
  builds: BuildRegistry,
  ticket: PageTicket | undefined,
  part: string,
  build: string,
): string {
  if (build === UNKNOWN_BUILD) return UNKNOWN_BUILD;
  if (!ticket) return OTHER;
  if (part !== HOST_PART) {
    const given = ticket.builds[part];
    if (!given || (given.id !== build && given.fallback !== build)) return OTHER;
  }
  return builds.label(part, build);
}
