/** The page's telemetry ticket, taken from its cookie (removed) so no other request carries it. */
import { PAGE_TICKET_COOKIE } from 'shared/telemetry-values';

export interface PageTicket {
  current(): string | undefined;
  replace(ticket: string): void;
}

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
