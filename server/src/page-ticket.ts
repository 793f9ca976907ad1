/**
 * What the host's server gave one page, signed (`t1.<base64url JSON>.<base64url HMAC-SHA256>`),
 * so the API labels telemetry with a build only when the host served it
 * (docs/decisions/0035-signed-page-tickets.md).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { isBuildId } from 'shared/deployment';
import { isRemoteName } from 'shared/published-routes';
import { MAX_TICKET_LENGTH } from 'shared/telemetry';

export { MAX_TICKET_LENGTH };

const VERSION = 't1';
/** A page left open longer gets a new one with its builds. */
export const PAGE_TICKET_TTL_S = 2 * 60 * 60;
/** A secret shorter than this is refused where it is configured: it could be guessed. */
export const MIN_TICKET_SECRET_LENGTH = 32;

export const TICKET_CHANNELS = ['stable', 'canary', 'preview'] as const;
export type TicketChannel = (typeof TICKET_CHANNELS)[number];

export interface TicketBuild {
  id: string;
  channel: TicketChannel;
  fallback?: string;
}

export interface PageTicket {
  builds: Record<string, TicketBuild>;
  expires: number;
  /** The API counts one load outcome per remote per nonce. */
  nonce: string;
}

function signature(secret: string, signed: string): string {
  return createHmac('sha256', secret).update(signed).digest('base64url');
}

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
