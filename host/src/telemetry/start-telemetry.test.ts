import { parseRuntimeConfig } from 'shared/runtime-config';
import { everyRemote } from 'shared/testing/runtime-config';
import type { TelemetryBatch } from 'shared/telemetry';
import { startTelemetry } from './start-telemetry';
import { RouteTable } from '../route-table/route-table';

const HOST_BUILD = 'host-b7';

const config = (extra: Record<string, unknown> = {}) =>
  parseRuntimeConfig({ remotes: everyRemote(), apiBaseUrl: 'https://api.example.com/', ...extra });

/**
 * The browser's sendBeacon, faked: the batches a host build sends. One document serves every
 * test, so the telemetry each test starts stays listening: each test's has a build of its own.
 */
function beaconsOf(host: string): { url: string; batch: TelemetryBatch }[] {
  const sent: { url: string; batch: TelemetryBatch }[] = [];
  const sendBeacon = (url: string, body: string) => {
    const batch = JSON.parse(body) as TelemetryBatch;
    if (batch.host === host) sent.push({ url, batch });
    return true;
  };
  Object.defineProperty(navigator, 'sendBeacon', { value: sendBeacon, configurable: true });
  return sent;
}

const leave = () => window.dispatchEvent(new Event('pagehide'));

function violation(effectiveDirective: string, blockedURI: string): Event {
  return Object.assign(new Event('securitypolicyviolation'), { effectiveDirective, blockedURI });
}

beforeEach(() => {
  jest.useFakeTimers();
  window.history.replaceState(null, '', '/game');
});
// Each test's page is left, so that the next starts with nothing waiting.
afterEach(() => {
  leave();
  jest.useRealTimers();
});

describe('startTelemetry', () => {
  it("reports to the API's telemetry route, as the host's build", () => {
    const telemetry = startTelemetry(config(), HOST_BUILD, RouteTable.registry());
    const sent = beaconsOf(HOST_BUILD);
    telemetry?.page.errorPage('/no-such-page', 404, undefined);
    leave();
    expect(sent).toEqual([
      {
        url: 'https://api.example.com/api/telemetry',
        batch: {
          host: HOST_BUILD,
          events: [{ kind: 'error-page', route: '*', status: 404, remote: 'host', build: HOST_BUILD }],
        },
      },
    ]);
  });

  it("reports the page's CSP violations with the route on screen", () => {
    startTelemetry(config(), 'host-csp', RouteTable.registry());
    const sent = beaconsOf('host-csp');
    document.dispatchEvent(violation('script-src-elem', 'https://cdn.evil.example/x.js?visitor=1'));
    leave();
    expect(sent.map(({ batch }) => batch.events)).toEqual([
      [{ kind: 'csp', route: '/game', directive: 'script-src-elem', blocked: 'https://cdn.evil.example' }],
    ]);
  });

  it('starts nothing, and so sends nothing, when the configuration switches it off', () => {
    expect(
      startTelemetry(config({ telemetry: { enabled: false } }), 'host-off', RouteTable.registry()),
    ).toBeUndefined();
    const sent = beaconsOf('host-off');
    document.dispatchEvent(violation('img-src', 'https://tracker.example/p.gif'));
    leave();
    jest.runAllTimers();
    expect(sent).toEqual([]);
  });
});
