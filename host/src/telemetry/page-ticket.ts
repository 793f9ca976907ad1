/**
 * The page's telemetry ticket (shared/telemetry-values' PAGE_TICKET_COOKIE): the host's server
 * sets it in a cookie with the page, the page takes it as it starts and removes the cookie, so it
 * goes with the page's batches and with no other request; a newer one from the host's server
 * (the version check's answer) replaces it for a page open longer than a ticket lives.
 */
import { PAGE_TICKET_COOKIE } from 'shared/telemetry-values';

export interface PageTicket {
  current(): string | undefined;
  replace(ticket: string): void;
}

/** Takes the ticket from `doc`'s cookie, if there is one, and removes the cookie. */
export function takePageTicket(doc: Document = document): PageTicket {
  const prefix = `${PAGE_TICKET_COOKIE}=`;
  let ticket = doc.cookie
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(prefix))
    ?.slice(prefix.length);
  if (ticket !== undefined) {
    const secure = doc.location?.protocol === 'https:' ? '; Secure' : '';
    doc.cookie = `${PAGE_TICKET_COOKIE}=; Path=/; Max-Age=0; SameSite=Strict${secure}`;
  }
  return {
    current: () => ticket || undefined,
    replace(next) {
      ticket = next;
    },
  };
}
