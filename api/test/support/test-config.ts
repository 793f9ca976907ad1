/** The configuration tests start from: every play wins, quiet logs, the production limits, no builds read. */
import { type AppConfig } from '../../src/config';
import { developmentVisitorCookie } from '../../src/http/visitor';

/** The visitor cookie's secret in tests: `newVisitor()` signs with it. */
export const TEST_VISITOR_SECRET = Buffer.from('test-visitor-cookie-secret-of-32-characters-or-more');
/** The secret the tests sign pages' telemetry tickets with, as the host's server would. */
export const TEST_TICKET_SECRET = 'test-page-ticket-secret-of-32-characters-or-more';
/** The key of the address hashes in tests. */
export const TEST_ADDRESS_HASH_KEY = Buffer.from('test-address-hash-key-of-32-characters-or-more');

export type ConfigOverrides = Partial<Omit<AppConfig, 'limits' | 'builds'>> & {
  limits?: Partial<AppConfig['limits']>;
  builds?: Partial<AppConfig['builds']>;
};

/** Where the parts publish their builds by default; nothing is read from them while `pollMs` is 0. */
export const DEFAULT_BUILD_SOURCES: AppConfig['builds']['sources'] = {
  host: 'http://localhost:3000/_app/builds/latest.json',
  gifts: 'http://localhost:3001/builds/latest.json',
  redeem: 'http://localhost:3002/builds/latest.json',
  content: 'http://localhost:3003/builds/latest.json',
};

export function testConfig(overrides: ConfigOverrides = {}): AppConfig {
  const { limits, builds, ...rest } = overrides;
  return {
    hostOrigin: 'http://localhost:3000',
    corsOrigins: [],
    trustProxy: false,
    logLevel: 'silent',
    gameWinRate: 1,
    giftTtlDays: 30,
    redeemSessionTtlMinutes: 30,
    apiOrigin: 'http://localhost:3004',
    visitorCookie: developmentVisitorCookie([TEST_VISITOR_SECRET]),
    addressHashKey: TEST_ADDRESS_HASH_KEY,
    pageTicketSecrets: [TEST_TICKET_SECRET],
    ...rest,
    limits: {
      playsPerVisitorPerDay: 5,
      playsPerIpPerDay: 50,
      redeemAttemptsPerIpPerMinute: 10,
      redeemOpensPerIpPerMinute: 30,
      redeemSessionsPerGift: 5,
      unknownRedeemReadsPerIpPerMinute: 20,
      telemetryBatchesPerIpPerMinute: 120,
      ...limits,
    },
    builds: buildsConfig(builds),
  };
}

/** The builds' configuration: each remote's manifest beside its builds' folder unless given, no grant set. */
function buildsConfig(builds: Partial<AppConfig['builds']> = {}): AppConfig['builds'] {
  const sources = builds.sources ?? DEFAULT_BUILD_SOURCES;
  const manifests = Object.fromEntries(
    Object.entries(sources)
      .filter(([part]) => part !== 'host')
      .map(([part, source]) => [part, new URL('../mf-manifest.json', source).href]),
  );
  return { sources, manifests, grants: {}, pollMs: 0, ...builds };
}

/** For tests that fire many requests from one address. */
export const HIGH_LIMITS = {
  playsPerVisitorPerDay: 10_000,
  playsPerIpPerDay: 10_000,
  redeemAttemptsPerIpPerMinute: 10_000,
  redeemOpensPerIpPerMinute: 10_000,
  unknownRedeemReadsPerIpPerMinute: 10_000,
  telemetryBatchesPerIpPerMinute: 10_000,
};
