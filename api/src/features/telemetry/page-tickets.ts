/**
 * Telemetry carries a build only on the host's signed ticket (anyone can post, and a stranger's
 * failures must not abort a release), and one load outcome per remote, so pages can't be replayed.
 */
import { MAX_TICKET_LENGTH, type PageTicket, verifyTicket } from 'server/page-ticket';
import { HOST_PART, OTHER, UNKNOWN_BUILD } from 'shared/telemetry';
import { type BuildRegistry } from './build-registry';

export const MAX_REMEMBERED_LOADS = 100_000;

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

/** A remote's build only when both the ticket and its deployment name it; without a ticket, `other`. */
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
