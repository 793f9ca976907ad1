/** The configuration tests start from: every play wins, quiet logs, the production limits. */
import { type AppConfig } from '../../src/config';

export type ConfigOverrides = Partial<Omit<AppConfig, 'limits'>> & { limits?: Partial<AppConfig['limits']> };

export function testConfig(overrides: ConfigOverrides = {}): AppConfig {
  const { limits, ...rest } = overrides;
  return {
    hostOrigin: 'http://localhost:3000',
    corsOrigins: [],
    trustProxy: false,
    logLevel: 'silent',
    gameWinRate: 1,
    giftTtlDays: 30,
    redeemSessionTtlMinutes: 30,
    ...rest,
    limits: { playsPerVisitorPerDay: 5, playsPerIpPerDay: 50, redeemAttemptsPerIpPerMinute: 10, ...limits },
  };
}

/** For tests that fire many requests from one address. */
export const HIGH_LIMITS = {
  playsPerVisitorPerDay: 10_000,
  playsPerIpPerDay: 10_000,
  redeemAttemptsPerIpPerMinute: 10_000,
};
