/**
 * A page's telemetry ticket: what the host's server says it gave one page, signed, so that the
 * API labels a page's telemetry with a build only when the host's server really served that build
 * to a page. Anyone can post telemetry; only the host's server can sign (docs/decisions/0035-signed-page-tickets.md).
 *
 *     t1.<payload: base64url of JSON>.<signature: base64url of HMAC-SHA256 of "t1." + payload>
 *
 * The payload holds each remote's build the page was given and its channel, the build it falls
 * back to, when the ticket expires and a nonce of the page's own: the API counts at most one load
 * outcome per remote per nonce. The secret is the host's and the API's (PAGE_TICKET_SECRETS on
 * both, a list: the first signs, any verifies, so it is rotated without a gap).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { isBuildId } from 'shared/deployment';
import { isRemoteName } from 'shared/published-routes';
import { MAX_TICKET_LENGTH } from 'shared/telemetry';

export { MAX_TICKET_LENGTH };

const VERSION = 't1';
/** How long a ticket is taken: a page left open longer asks for its builds again, with a new one. */
export const PAGE_TICKET_TTL_S = 2 * 60 * 60;
/** A secret shorter than this is refused where it is configured: it could be guessed. */
export const MIN_TICKET_SECRET_LENGTH = 32;

export const TICKET_CHANNELS = ['stable', 'canary', 'preview'] as const;
export type TicketChannel = (typeof TICKET_CHANNELS)[number];

export interface TicketBuild {
  id: string;
  channel: TicketChannel;
  /** The build the page loads when `id` cannot be loaded. */
  fallback?: string;
}

export interface PageTicket {
  /** By remote. */
  builds: Record<string, TicketBuild>;
  /** Seconds since the epoch. */
  expires: number;
  /** The page's own: 16 random bytes, base64url. */
  nonce: string;
}

function signature(secret: string, signed: string): string {
  return createHmac('sha256', secret).update(signed).digest('base64url');
}

/** A ticket for a page given `builds`, now (`nowS`, seconds since the epoch), signed with `secret`. */
export function signTicket(secret: string, builds: Record<string, TicketBuild>, nowS: number): string {
  const ticket: PageTicket = {
    builds,
    expires: nowS + PAGE_TICKET_TTL_S,
    nonce: randomBytes(16).toString('base64url'),
  };
  const signed = `${VERSION}.${Buffer.from(JSON.stringify(ticket)).toString('base64url')}`;
  return `${signed}.${signature(secret, signed)}`;
}

function readBuild(value: unknown): TicketBuild | undefined {
  const raw = value as Partial<Record<keyof TicketBuild, unknown>> | null;
  if (typeof raw !== 'object' || raw === null || !isBuildId(raw.id)) return undefined;
  if (!TICKET_CHANNELS.includes(raw.channel as TicketChannel)) return undefined;
  if (raw.fallback !== undefined && !isBuildId(raw.fallback)) return undefined;
  return { id: raw.id, channel: raw.channel as TicketChannel, ...(raw.fallback ? { fallback: raw.fallback } : {}) };
}

function readPayload(json: string): PageTicket | undefined {
  let raw: Partial<Record<keyof PageTicket, unknown>> | null;
  try {
    raw = JSON.parse(json) as typeof raw;
  } catch {
    return undefined;
  }
  if (typeof raw !== 'object' || raw === null || typeof raw.builds !== 'object' || raw.builds === null)
    return undefined;
  if (!Number.isInteger(raw.expires) || typeof raw.nonce !== 'string' || !/^[A-Za-z0-9_-]{16,64}$/.test(raw.nonce))
    return undefined;
  const builds: Record<string, TicketBuild> = {};
  for (const [remote, value] of Object.entries(raw.builds)) {
    const build = readBuild(value);
    if (!build || !isRemoteName(remote)) return undefined;
    builds[remote] = build;
  }
  return { builds, expires: raw.expires as number, nonce: raw.nonce };
}

export type TicketCheck = { ticket: PageTicket } | { ticket?: undefined; reason: string };

/** The ticket `token` carries when one of `secrets` signed it and it has not expired at `nowS`. */
export function verifyTicket(token: string | undefined, secrets: readonly string[], nowS: number): TicketCheck {
  if (!token) return { reason: 'no ticket' };
  if (token.length > MAX_TICKET_LENGTH) return { reason: 'the ticket is too long' };
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== VERSION) return { reason: 'not a ticket' };
  const signed = `${parts[0]}.${parts[1] ?? ''}`;
  const given = Buffer.from(parts[2] ?? '');
  const verified = secrets.some((secret) => {
    const expected = Buffer.from(signature(secret, signed));
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
  if (!verified) return { reason: 'the signature does not verify' };
  const ticket = readPayload(Buffer.from(parts[1] ?? '', 'base64url').toString('utf8'));
  if (!ticket) return { reason: 'the ticket is malformed' };
  if (ticket.expires <= nowS) return { reason: 'the ticket has expired' };
  if (ticket.expires > nowS + PAGE_TICKET_TTL_S) return { reason: 'the ticket lives longer than a ticket may' };
  return { ticket };
}
