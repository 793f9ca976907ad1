/** @jest-environment node */
import { parseRuntimeConfig, type RuntimeConfig } from 'shared/runtime-config';
import { everyRemote } from 'shared/testing/runtime-config';
import {
  CRISP_SCRIPT_URL,
  DEFAULT_GTAG_SCRIPT_URL,
  MIXPANEL_DEFAULT_API_HOST,
} from '../src/third-party/third-party-addresses';
import { contentSecurityPolicy, cspReportUrl, securityHeaders } from './security-headers';

const base = {
  remotes: {
    ...everyRemote(),
    gifts: 'https://gifts.example.com/mf-manifest.json',
    redeem: 'https://redeem.example.com/mf-manifest.json',
    content: 'https://content.example.com/v42/mf-manifest.json',
  },
  apiBaseUrl: 'https://api.example.com/v1',
};

function configWith(extra: Record<string, unknown> = {}): RuntimeConfig {
  return parseRuntimeConfig({ ...base, ...extra });
}

/** The policy as `{ directive: [sources] }`. */
function directives(config: RuntimeConfig): Record<string, string[]> {
  return Object.fromEntries(
    contentSecurityPolicy(config)
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .map(([name = '', ...sources]) => [name, sources]),
  );
}

/**
 * Whether a CSP source expression (`https://*.example.com`, an origin, an origin and a path) allows
 * a URL: its scheme and host, and its path when the source has one (a folder ending in `/`
 * allows what is in it, any other path only itself).
 */
function allows(sources: readonly string[], url: string): boolean {
  const { protocol, host, pathname } = new URL(url);
  return sources.some((source) => {
    const match = /^(\w+:)\/\/(\*\.)?([^/]+)(\/.*)?$/.exec(source);
    if (!match) return false;
    const [, scheme, wildcard, rest, path] = match;
    const hostOk = wildcard ? host.endsWith(`.${rest}`) : host === rest;
    const pathOk = !path || (path.endsWith('/') ? pathname.startsWith(path) : pathname === path);
    return scheme === protocol && hostOk && pathOk;
  });
}

const ORIGINS = ['https://gifts.example.com', 'https://redeem.example.com', 'https://content.example.com'];

describe('the Content-Security-Policy of a page', () => {
  it('runs scripts from the page and the remotes only: no inline script, no eval', () => {
    const policy = directives(configWith());
    expect(policy['script-src']).toEqual(["'self'", ...ORIGINS]);
    expect(contentSecurityPolicy(configWith())).not.toMatch(/'unsafe-eval'|'strict-dynamic'|'nonce-/);
  });

  it('starts from nothing, and forbids plugins, <base>, frames and being framed', () => {
    const policy = directives(configWith());
    expect(policy['default-src']).toEqual(["'none'"]);
    expect(policy['object-src']).toEqual(["'none'"]);
    expect(policy['base-uri']).toEqual(["'none'"]);
    expect(policy['frame-src']).toEqual(["'none'"]);
    expect(policy['frame-ancestors']).toEqual(["'none'"]);
    expect(policy['form-action']).toEqual(["'self'"]);
  });

  it('lets the page reach its own files, the API and the remotes, and nothing else', () => {
    const policy = directives(configWith());
    expect(policy['connect-src']).toEqual(["'self'", 'https://api.example.com', ...ORIGINS]);
    expect(policy['img-src']).toEqual(["'self'", 'data:']);
    expect(policy['style-src']).toEqual(["'self'", "'unsafe-inline'"]);
    // No third party is on: none of their directives is opened.
    expect(policy['font-src']).toBeUndefined();
    expect(policy['worker-src']).toBeUndefined();
    expect(policy['media-src']).toBeUndefined();
  });

  it('names an origin shared by several remotes once (remotes under path prefixes)', () => {
    const config = parseRuntimeConfig({
      remotes: everyRemote((name) => `https://static.example.com/${name}/mf-manifest.json`),
      apiBaseUrl: 'https://static.example.com/api',
    });
    expect(directives(config)['script-src']).toEqual(["'self'", 'https://static.example.com']);
    expect(directives(config)['connect-src']).toEqual(["'self'", 'https://static.example.com']);
  });

  it('names the allowed remote origins when the configuration lists them (remoteOrigins)', () => {
    const config = configWith({
      remoteOrigins: [
        'https://gifts.example.com',
        'https://redeem.example.com',
        'https://content.example.com',
        'https://next.example.com',
      ],
    });
    expect(directives(config)['script-src']).toEqual(["'self'", ...ORIGINS, 'https://next.example.com']);
    expect(directives(config)['connect-src']).toEqual([
      "'self'",
      'https://api.example.com',
      ...ORIGINS,
      'https://next.example.com',
    ]);
  });

  it('keeps the port of a remote or an API off the default port', () => {
    const config = parseRuntimeConfig({ remotes: everyRemote(), apiBaseUrl: 'http://localhost:3004' });
    expect(directives(config)['script-src']).toEqual([
      "'self'",
      'http://localhost:3001',
      'http://localhost:3002',
      'http://localhost:3003',
    ]);
    expect(directives(config)['connect-src']).toContain('http://localhost:3004');
  });

  describe('third parties, each only when the configuration switches it on', () => {
    it("Google's tag: its loader, and where its hits go", () => {
      const policy = directives(configWith({ tagManager: { measurementId: 'G-ABCDE12345' } }));
      expect(allows(policy['script-src'] ?? [], DEFAULT_GTAG_SCRIPT_URL)).toBe(true);
      // The loader's folder, never any host of Google's domain (another site's container there).
      expect(policy['script-src']).toEqual(["'self'", ...ORIGINS, 'https://www.googletagmanager.com/gtag/']);
      expect(allows(policy['script-src'] ?? [], 'https://www.googletagmanager.com/gtm.js?id=GTM-OTHER')).toBe(false);
      expect(allows(policy['script-src'] ?? [], 'https://evil.googletagmanager.com/gtag/js')).toBe(false);
      expect(policy['connect-src']).toEqual(
        expect.arrayContaining(['https://*.google-analytics.com', 'https://*.analytics.google.com']),
      );
      expect(policy['img-src']).toEqual(expect.arrayContaining(['https://*.google-analytics.com']));
    });

    it("Google's tag from another address: that origin instead of Google's for scripts", () => {
      const policy = directives(
        configWith({ tagManager: { measurementId: 'G-ABCDE12345', scriptUrl: 'http://127.0.0.1:4811/gtag/js' } }),
      );
      expect(policy['script-src']).toEqual(["'self'", ...ORIGINS, 'http://127.0.0.1:4811/gtag/']);
      expect(policy['connect-src']).toContain('http://127.0.0.1:4811');
      expect(policy['connect-src']).toContain('https://*.google-analytics.com');
    });

    it("Crisp: its loader, its WebSockets, workers, images, fonts and sounds, as Crisp's list says", () => {
      const policy = directives(configWith({ chat: { crispWebsiteId: 'website-id' } }));
      expect(allows(policy['script-src'] ?? [], CRISP_SCRIPT_URL)).toBe(true);
      expect(policy['script-src']).toEqual(["'self'", ...ORIGINS, 'https://client.crisp.chat']);
      expect(policy['connect-src']).toEqual(
        expect.arrayContaining(['https://client.crisp.chat', 'wss://client.relay.crisp.chat']),
      );
      expect(policy['img-src']).toEqual(expect.arrayContaining(['data:', 'https://image.crisp.chat']));
      expect(policy['worker-src']).toEqual(['blob:', 'https://client.crisp.chat']);
      expect(policy['font-src']).toEqual(['https://client.crisp.chat']);
      expect(policy['media-src']).toEqual(['https://client.crisp.chat']);
      expect(policy['style-src']).toEqual(["'self'", "'unsafe-inline'", 'https://client.crisp.chat']);
    });

    it("Crisp's loader from another address: that origin instead of Crisp's for scripts", () => {
      const policy = directives(
        configWith({ chat: { crispWebsiteId: 'website-id', scriptUrl: 'http://localhost:4810/l.js' } }),
      );
      expect(policy['script-src']).toEqual(["'self'", ...ORIGINS, 'http://localhost:4810']);
    });

    it('Mixpanel: requests to its default API host, or to the one configured', () => {
      const byDefault = directives(configWith({ analytics: { mixpanelToken: 'token' } }));
      expect(byDefault['connect-src']).toContain(MIXPANEL_DEFAULT_API_HOST);
      // Its library is one of the host's chunks: no script origin of its own.
      expect(byDefault['script-src']).toEqual(["'self'", ...ORIGINS]);
      const eu = directives(
        configWith({ analytics: { mixpanelToken: 'token', apiHost: 'https://api-eu.mixpanel.com/' } }),
      );
      expect(eu['connect-src']).toContain('https://api-eu.mixpanel.com');
      expect(eu['connect-src']).not.toContain(MIXPANEL_DEFAULT_API_HOST);
    });

    it('the icon service: requests to its origin only', () => {
      const policy = directives(configWith({ icons: { serviceUrl: 'https://api.iconify.design' } }));
      expect(policy['connect-src']).toEqual([
        "'self'",
        'https://api.example.com',
        ...ORIGINS,
        'https://api.iconify.design',
      ]);
      expect(policy['img-src']).toEqual(["'self'", 'data:']);
    });

    it('never allows inline scripts or eval, whatever is switched on', () => {
      const policy = directives(
        configWith({
          analytics: { mixpanelToken: 'token' },
          tagManager: { measurementId: 'G-ABCDE12345' },
          chat: { crispWebsiteId: 'website-id' },
          icons: { serviceUrl: 'https://api.iconify.design' },
        }),
      );
      expect(policy['script-src']?.filter((source) => source.startsWith("'"))).toEqual(["'self'"]);
    });
  });
});

describe("the policy's reports", () => {
  it("go to the API's CSP reports route: report-to for the Reporting API, report-uri for the other browsers", () => {
    const policy = directives(configWith());
    expect(policy['report-to']).toEqual(['csp']);
    expect(policy['report-uri']).toEqual(['https://api.example.com/v1/api/telemetry/csp']);
    expect(securityHeaders(configWith(), { page: true, https: true })['Reporting-Endpoints']).toBe(
      'csp="https://api.example.com/v1/api/telemetry/csp"',
    );
  });

  it('follow the API wherever the configuration puts it', () => {
    const config = parseRuntimeConfig({ remotes: everyRemote(), apiBaseUrl: 'http://localhost:3004/' });
    expect(cspReportUrl(config)).toBe('http://localhost:3004/api/telemetry/csp');
    expect(directives(config)['report-uri']).toEqual(['http://localhost:3004/api/telemetry/csp']);
  });

  it('keep an address whose characters would end the directive, the policy or the header inside it', () => {
    const config = parseRuntimeConfig({ remotes: everyRemote(), apiBaseUrl: 'https://example.com/a;b,c"d' });
    expect(cspReportUrl(config)).toBe('https://example.com/a%3Bb%2Cc%22d/api/telemetry/csp');
  });

  it('are not asked for with telemetry switched off', () => {
    const config = configWith({ telemetry: { enabled: false } });
    expect(contentSecurityPolicy(config)).not.toMatch(/report-/);
    expect(contentSecurityPolicy(config)).toMatch(/frame-ancestors 'none'$/);
    expect(securityHeaders(config, { page: true, https: false })).not.toHaveProperty('Reporting-Endpoints');
  });

  it('are named by pages only', () => {
    expect(securityHeaders(configWith(), { page: false, https: false })).not.toHaveProperty('Reporting-Endpoints');
  });
});

describe('securityHeaders', () => {
  const config = configWith();

  it('gives a page the whole set', () => {
    expect(securityHeaders(config, { page: true, https: false })).toStrictEqual({
      'Content-Security-Policy': contentSecurityPolicy(config),
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Permissions-Policy': expect.any(String),
      'Referrer-Policy': 'strict-origin-when-cross-origin',
      'Reporting-Endpoints': 'csp="https://api.example.com/v1/api/telemetry/csp"',
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': 'DENY',
    });
  });

  it('gives anything else no sniffing and the referrer rule', () => {
    expect(securityHeaders(config, { page: false, https: false })).toStrictEqual({
      'Referrer-Policy': 'strict-origin-when-cross-origin',
      'X-Content-Type-Options': 'nosniff',
    });
  });

  it('adds HSTS over HTTPS only, to pages and everything else', () => {
    for (const page of [true, false]) {
      expect(securityHeaders(config, { page, https: true })['Strict-Transport-Security']).toBe('max-age=31536000');
      expect(securityHeaders(config, { page, https: false })).not.toHaveProperty('Strict-Transport-Security');
    }
  });

  it('keeps copying and sharing for the page, and denies the features the app does not use', () => {
    const features = securityHeaders(config, { page: true, https: false })['Permissions-Policy']?.split(', ') ?? [];
    expect(features).toContain('clipboard-write=(self)');
    expect(features.filter((feature) => feature.startsWith('web-share'))).toEqual([]);
    expect(features).toEqual(expect.arrayContaining(['camera=()', 'microphone=()', 'geolocation=()', 'payment=()']));
    expect(features.filter((feature) => !feature.endsWith('=()'))).toEqual(['clipboard-write=(self)']);
  });
});
