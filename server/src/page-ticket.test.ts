import { createHmac } from 'node:crypto';
import { telemetryBatchSchema } from 'shared/api/contract';
import { MAX_REMOTES } from 'shared/composition';
import { MAX_TICKET_LENGTH, PAGE_TICKET_TTL_S, signTicket, verifyTicket } from './page-ticket';

const SECRET = 's'.repeat(40);
const NEXT = 'n'.repeat(40);
const NOW = 1_800_000_000;
const builds = {
  gifts: { id: 'g-2', channel: 'canary' as const, fallback: 'g-1' },
  content: { id: 'c-7', channel: 'stable' as const },
};

/** A ticket signed like the host's, with a payload of the caller's. */
function forge(payload: unknown, secret = SECRET): string {
  const signed = `t1.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
  return `${signed}.${createHmac('sha256', secret).update(signed).digest('base64url')}`;
}

describe('page tickets', () => {
  it('carry the builds a page was given, until they expire, with a nonce of each page’s own', () => {
    const first = verifyTicket(signTicket(SECRET, builds, NOW), [SECRET], NOW + 60).ticket;
    const second = verifyTicket(signTicket(SECRET, builds, NOW), [SECRET], NOW + 60).ticket;
    expect(first).toEqual({ builds, expires: NOW + PAGE_TICKET_TTL_S, nonce: expect.stringMatching(/^[\w-]{22}$/) });
    expect(second?.nonce).not.toBe(first?.nonce);
  });

  it('carry every remote a configuration may compose, at the longest names and build ids, within what the API reads', () => {
    const id = (n: number) => `${n}`.padEnd(128, 'b');
    const all = Object.fromEntries(
      Array.from({ length: MAX_REMOTES }, (_, n) => [
        `r${n}`.padEnd(40, 'x'),
        { id: id(n), channel: 'preview' as const, fallback: id(n + 100) },
      ]),
    );
    const token = signTicket(SECRET, all, NOW);
    expect(token.length).toBeLessThanOrEqual(MAX_TICKET_LENGTH);
    expect(verifyTicket(token, [SECRET], NOW).ticket?.builds).toEqual(all);
    const batch = { host: 'h1', ticket: token, events: [{ kind: 'reload', route: '/', remote: 'host', build: 'h1' }] };
    expect(telemetryBatchSchema.safeParse(batch).error).toBeUndefined();
  });

  it('verify under any of the secrets, so a secret is rotated without a gap', () => {
    expect(verifyTicket(signTicket(NEXT, builds, NOW), [SECRET, NEXT], NOW).ticket).toBeDefined();
    expect(verifyTicket(signTicket(SECRET, builds, NOW), [NEXT], NOW).ticket).toBeUndefined();
  });

  it('are refused when forged, altered, expired, too long or malformed, saying why', () => {
    const token = signTicket(SECRET, builds, NOW);
    const [version, payload, sig] = token.split('.') as [string, string, string];
    const altered = Buffer.from(Buffer.from(payload, 'base64url').toString('utf8').replace('"g-2"', '"g-3"')).toString(
      'base64url',
    );
    const cases: Array<[string | undefined, RegExp]> = [
      [undefined, /no ticket/],
      ['x.y', /not a ticket/],
      [signTicket('o'.repeat(40), builds, NOW), /does not verify/],
      [`${version}.${altered}.${sig}`, /does not verify/],
      [signTicket(SECRET, builds, NOW - PAGE_TICKET_TTL_S), /expired/],
      [forge({ builds, expires: NOW + PAGE_TICKET_TTL_S + 60, nonce: 'a'.repeat(22) }), /longer/],
      [
        forge({ builds: { gifts: { id: '../x', channel: 'stable' } }, expires: NOW + 60, nonce: 'a'.repeat(22) }),
        /malformed/,
      ],
      [
        forge({ builds: { gifts: { id: 'g', channel: 'any' } }, expires: NOW + 60, nonce: 'a'.repeat(22) }),
        /malformed/,
      ],
      [forge({ builds, expires: NOW + 60, nonce: 'short' }), /malformed/],
      [forge('not an object'), /malformed/],
      [`t1.${'a'.repeat(MAX_TICKET_LENGTH)}.x`, /too long/],
    ];
    for (const [candidate, reason] of cases) {
      const result = verifyTicket(candidate, [SECRET], NOW);
      expect(result.ticket).toBeUndefined();
      expect('reason' in result && result.reason).toMatch(reason);
    }
  });
});
