/** A page's ticket goes in a cookie, since the page's body is shared (docs/decisions/0035-signed-page-tickets.md). */
import { signTicket, type TicketBuild } from 'server/page-ticket';
import { PAGE_TICKET_COOKIE, PAGE_TICKET_COOKIE_MAX_AGE_S } from 'shared/telemetry-values';
import type { BuildChoice } from './remote-build-choice';

export interface PageTickets {
  ticket(choice: BuildChoice): string;
  /** Readable by the page's script, which removes it. */
  cookie(choice: BuildChoice, https: boolean): string;
}

export function ticketBuilds(choice: BuildChoice): Record<string, TicketBuild> {
  const builds: Record<string, TicketBuild> = {};
  for (const [remote, build] of Object.entries(choice.builds)) {
    if (!build) continue;
    builds[remote] = { id: build.id, channel: build.channel, ...(build.fallback ? { fallback: build.fallback } : {}) };
  }
  return builds;
}

export function createPageTickets(secret: string, now: () => number = Date.now): PageTickets {
  const ticket = (choice: BuildChoice) => signTicket(secret, ticketBuilds(choice), Math.floor(now() / 1000));
  return {
    ticket,
    cookie(choice, https) {
      const secure = https ? '; Secure' : '';
      return `${PAGE_TICKET_COOKIE}=${ticket(choice)}; Path=/; Max-Age=${PAGE_TICKET_COOKIE_MAX_AGE_S}; SameSite=Strict${secure}`;
    },
  };
}
