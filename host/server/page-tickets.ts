/**
 * The telemetry tickets the host's server gives its pages (server/page-ticket.ts): each page gets
 * one in a short-lived cookie (the page's body is kept and shared, a cookie is the response's
 * own), and `GET /remote-builds.json` a fresh one beside the builds it names, for a page that
 * switches to them. Without PAGE_TICKET_SECRETS, or with telemetry off, none: the API then labels
 * no build from these pages.
 */
import { signTicket, type TicketBuild } from 'server/page-ticket';
import { PAGE_TICKET_COOKIE, PAGE_TICKET_COOKIE_MAX_AGE_S } from 'shared/telemetry-values';
import type { BuildChoice } from './remote-build-choice';

export interface PageTickets {
  /** The ticket of a page given `choice`. */
  ticket(choice: BuildChoice): string;
  /** Its Set-Cookie: readable by the page's script, which removes it; for this site only. */
  cookie(choice: BuildChoice, https: boolean): string;
}

/** Each remote's build a page was given, as its ticket names them. */
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
