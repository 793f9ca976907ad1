import { parseRuntimeConfig } from 'shared/runtime-config';
import { everyRemote } from 'shared/testing/runtime-config';
import type { TelemetryBatch } from 'shared/telemetry';
import { startTelemetry } from './start-telemetry';
import type { SendDeps } from './telemetry-queue';

const HOST_BUILD = 'host-b7';

const config = (extra: Record<string, unknown> = {}) =>
  parseRuntimeConfig({ remotes: everyRemote(), apiBaseUrl: 'https://api.example.com/', ...extra });

/** The browser's side, faked: what is sent, and a way to hide the page. */
function browser() {
  const sent: { url: string; body: string }[] = [];
  const hidden: (() => void)[] = [];
  const deps: SendDeps = {
    sendBeacon: (url, body) => {
      sent.push({ url, body });
      return true;
    },
    fetch: jest.fn(),
    setTimeout: () => undefined,
    clearTimeout: () => undefined,
    onHidden: (listener) => hidden.push(listener),
  };
  return { deps, sent, hide: () => hidden.forEach((listener) => listener()) };
}

function violation(effectiveDirective: string, blockedURI: string): Event {
  return Object.assign(new Event('securitypolicyviolation'), { effectiveDirective, blockedURI });
}

beforeEach(() => window.history.replaceState(null, '', '/game'));

describe('startTelemetry', () => {
  it("reports to the API's telemetry route, as the host's build", () => {
    const { deps, sent, hide } = browser();
    const telemetry = startTelemetry(config(), HOST_BUILD, deps);
    telemetry?.page.errorPage('/no-such-page', 404, undefined);
    hide();
    expect(sent).toHaveLength(1);
    expect(sent[0]?.url).toBe('https://api.example.com/api/telemetry');
    expect(JSON.parse(sent[0]?.body ?? '')).toEqual({
      host: HOST_BUILD,
      events: [{ kind: 'error-page', route: '*', status: 404, remote: 'host' }],
    } satisfies TelemetryBatch);
  });

  it("reports the page's CSP violations with the route on screen", () => {
    const { deps, sent, hide } = browser();
    startTelemetry(config(), HOST_BUILD, deps);
    document.dispatchEvent(violation('script-src-elem', 'https://cdn.evil.example/x.js?visitor=1'));
    hide();
    expect((JSON.parse(sent[0]?.body ?? '') as TelemetryBatch).events).toEqual([
      { kind: 'csp', route: '/game', directive: 'script-src-elem', blocked: 'https://cdn.evil.example' },
    ]);
  });

  it('starts nothing, and so sends nothing, when the configuration switches it off', () => {
    const { deps, sent, hide } = browser();
    const onHidden = jest.spyOn(deps, 'onHidden');
    expect(startTelemetry(config({ telemetry: { enabled: false } }), HOST_BUILD, deps)).toBeUndefined();
    document.dispatchEvent(violation('img-src', 'https://tracker.example/p.gif'));
    hide();
    expect(onHidden).not.toHaveBeenCalled();
    expect(sent).toEqual([]);
  });
});
