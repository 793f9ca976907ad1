/** @jest-environment node */
import {
  allowedRemoteOrigins,
  ConfigError,
  DEFAULT_BUILD_CHECK_INTERVAL_MS,
  DEFAULT_REMOTE_TIMEOUT_MS,
  isAllowedRemoteUrl,
  parseRuntimeConfig,
  RemoteOriginError,
  telemetryEnabled,
} from './runtime-config';
import { everyRemote } from './testing/runtime-config';

const VALID = {
  remotes: {
    ...everyRemote(),
    gifts: 'https://gifts.example.com/mf-manifest.json',
    redeem: 'https://redeem.example.com/mf-manifest.json',
    content: 'http://localhost:3003/mf-manifest.json',
  },
  apiBaseUrl: 'https://api.example.com',
};

/** The ConfigError that parsing `input` throws; fails the test when nothing is thrown. */
function configErrorFor(input: unknown): ConfigError {
  try {
    parseRuntimeConfig(input);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`expected ${JSON.stringify(input)} to be rejected`);
}

describe('parseRuntimeConfig', () => {
  it('accepts a valid configuration and fills in the defaults', () => {
    expect(parseRuntimeConfig(VALID)).toStrictEqual({
      ...VALID,
      buildCheckIntervalMs: 3_600_000,
      remoteTimeoutMs: 10_000,
    });
    expect(DEFAULT_BUILD_CHECK_INTERVAL_MS).toBe(3_600_000);
    expect(DEFAULT_REMOTE_TIMEOUT_MS).toBe(10_000);
  });

  it('keeps explicit intervals and timeouts', () => {
    const config = parseRuntimeConfig({ ...VALID, buildCheckIntervalMs: 60_000, remoteTimeoutMs: 1 });
    expect(config.buildCheckIntervalMs).toBe(60_000);
    expect(config.remoteTimeoutMs).toBe(1);
  });

  it('does not change the URLs it is given', () => {
    const config = parseRuntimeConfig({ ...VALID, apiBaseUrl: 'http://127.0.0.1:3004/api/v1' });
    expect(config.apiBaseUrl).toBe('http://127.0.0.1:3004/api/v1');
    expect(config.remotes).toStrictEqual(VALID.remotes);
  });

  it('names the key of a missing remote', () => {
    const { gifts: _omitted, ...remotes } = VALID.remotes;
    const error = configErrorFor({ ...VALID, remotes });
    expect(error.name).toBe('ConfigError');
    expect(error.message).toContain('"remotes.gifts"');
    expect(error.message).toMatch(/missing/);
  });

  it('names the key when the whole remotes object is missing', () => {
    const { remotes: _omitted, ...rest } = VALID;
    const error = configErrorFor(rest);
    expect(error.message).toContain('"remotes"');
    expect(error.message).toMatch(/missing/);
  });

  it.each([
    ['not a URL', 'api.example.com'],
    ['an ftp: URL', 'ftp://api.example.com'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['an empty string', ''],
  ])('rejects an apiBaseUrl that is %s, naming the key', (_label, apiBaseUrl) => {
    const error = configErrorFor({ ...VALID, apiBaseUrl });
    expect(error.message).toContain('"apiBaseUrl"');
    expect(error.message).toMatch(/http\(s\) URL/);
  });

  it('rejects a remote that is not an http(s) URL, naming its key', () => {
    const error = configErrorFor({ ...VALID, remotes: { ...VALID.remotes, redeem: 'file:///etc/passwd' } });
    expect(error.message).toContain('"remotes.redeem"');
  });

  it('rejects a buildCheckIntervalMs of 0, naming the key', () => {
    const error = configErrorFor({ ...VALID, buildCheckIntervalMs: 0 });
    expect(error.message).toContain('"buildCheckIntervalMs"');
    expect(error.message).toMatch(/at least 1/);
  });

  it.each([
    ['a fraction', 1.5],
    ['a numeric string', '60'],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
  ])('rejects a buildCheckIntervalMs that is %s, naming the key', (_label, buildCheckIntervalMs) => {
    const error = configErrorFor({ ...VALID, buildCheckIntervalMs });
    expect(error.message).toContain('"buildCheckIntervalMs"');
  });

  // A value that is present but of the wrong kind must not be reported as missing: an integrator
  // who wrote "60" would look for a typo in the key name.
  it.each([
    ['a fraction', 1.5],
    ['a numeric string', '60'],
  ])('says a buildCheckIntervalMs that is %s must be a whole number, not that it is missing', (_label, value) => {
    const error = configErrorFor({ ...VALID, buildCheckIntervalMs: value });
    expect(error.message).toContain('"buildCheckIntervalMs" must be a whole number');
    expect(error.message).not.toMatch(/missing/);
  });

  it('rejects a negative remoteTimeoutMs, naming the key', () => {
    expect(configErrorFor({ ...VALID, remoteTimeoutMs: -5 }).message).toContain('"remoteTimeoutMs"');
  });

  it('rejects an unknown top-level key, naming it', () => {
    const error = configErrorFor({ ...VALID, apiBaseURL: 'https://typo.example.com' });
    expect(error.message).toMatch(/unknown key "apiBaseURL"/);
  });

  it('accepts a remote the registry does not name, which the host composes at run time', () => {
    const remotes = { ...VALID.remotes, news: 'https://news.example.com/mf-manifest.json' };
    const config = parseRuntimeConfig({ ...VALID, remotes, routeGrants: { news: ['/news', '/news/:storyId'] } });
    expect(config.remotes.news).toBe('https://news.example.com/mf-manifest.json');
    expect(config.routeGrants?.news).toEqual(['/news', '/news/:storyId']);
  });

  it('refuses a remote name that is none, and a registry remote left out, naming both', () => {
    const { gifts: _gifts, ...others } = VALID.remotes;
    const error = configErrorFor({ ...VALID, remotes: { ...others, 'Shop!': 'https://shop.example.com/mf.json' } });
    expect(error.message).toMatch(/"remotes\.gifts" is missing/);
    expect(error.message).toMatch(/must be a remote name/);
  });

  it('refuses a grant for no configured remote, a bad path, and a path granted to two remotes', () => {
    const remotes = { ...VALID.remotes, news: 'https://news.example.com/mf-manifest.json' };
    const error = configErrorFor({
      ...VALID,
      remotes,
      routeGrants: { news: ['/', 'news/'], shop: ['/shop'] },
    });
    expect(error.message).toMatch(/"routeGrants\.shop": no remote of "remotes"/);
    expect(error.message).toMatch(/"routeGrants\.news\.1" must be a route path/);
    expect(error.message).toMatch(/the path \/ is granted to both content and news/);
  });

  it('refuses two grants of one shape, whatever their parameters are called', () => {
    const remotes = { ...VALID.remotes, news: 'https://news.example.com/mf-manifest.json' };
    const error = configErrorFor({ ...VALID, remotes, routeGrants: { news: ['/gifts/:id'] } });
    expect(error.message).toMatch(/the path \/gifts\/:id is granted to both gifts and news/);
  });

  it('names every offending key at once', () => {
    const error = configErrorFor({ remotes: { ...VALID.remotes, gifts: 'nope' }, apiBaseUrl: 'ftp://x', extra: true });
    expect(error.message).toContain('"remotes.gifts"');
    expect(error.message).toContain('"apiBaseUrl"');
    expect(error.message).toContain('"extra"');
  });

  it.each([
    ['null', null],
    ['undefined', undefined],
    ['an array', [VALID]],
    ['a string', JSON.stringify(VALID)],
    ['a number', 42],
  ])('rejects %s as the whole configuration', (_label, input) => {
    const error = configErrorFor(input);
    expect(error.message).toMatch(/^Invalid runtime configuration/);
  });

  // `null` or a JSON array in a config file is present, just not an object; the message should
  // say so rather than report an empty key name as missing.
  it.each([
    ['null', null],
    ['an array', [VALID]],
  ])('explains that %s is not an object', (_label, input) => {
    const error = configErrorFor(input);
    expect(error.message).toMatch(/object/);
    expect(error.message).not.toContain('"" is missing');
  });
});

describe('parseRuntimeConfig third parties', () => {
  it('accepts every third-party section and fills in the icon timeout', () => {
    const config = parseRuntimeConfig({
      ...VALID,
      analytics: { mixpanelToken: 'abc123' },
      tagManager: { measurementId: 'G-ABCD1234', scriptUrl: 'http://127.0.0.1:9000/gtag/js' },
      chat: { crispWebsiteId: '0a1b2c3d-0000-4000-8000-123456789abc' },
      icons: { serviceUrl: 'https://api.iconify.design' },
    });
    expect(config.analytics).toStrictEqual({ mixpanelToken: 'abc123' });
    expect(config.tagManager?.measurementId).toBe('G-ABCD1234');
    expect(config.chat?.crispWebsiteId).toBe('0a1b2c3d-0000-4000-8000-123456789abc');
    expect(config.icons).toStrictEqual({ serviceUrl: 'https://api.iconify.design', timeoutMs: 3_000 });
  });

  it('leaves a missing section off', () => {
    const config = parseRuntimeConfig(VALID);
    expect(config.analytics).toBeUndefined();
    expect(config.chat).toBeUndefined();
  });

  it.each([
    [{ analytics: {} }, '"analytics.mixpanelToken" is missing'],
    [{ analytics: { mixpanelToken: 'a b' } }, '"analytics.mixpanelToken"'],
    [{ tagManager: { measurementId: 'tracking' } }, '"tagManager.measurementId"'],
    [{ chat: { crispWebsiteId: 'x', scriptUrl: 'file:///l.js' } }, '"chat.scriptUrl"'],
    [
      { icons: { serviceUrl: 'https://api.iconify.design', timeoutMs: 1999 } },
      '"icons.timeoutMs" must be at least 2000',
    ],
    [
      { icons: { serviceUrl: 'https://api.iconify.design', timeoutMs: 5001 } },
      '"icons.timeoutMs" must be at most 5000',
    ],
    [{ chat: { crispWebsiteId: 'x', widgetColour: 'red' } }, '"chat.widgetColour"'],
  ])('rejects %p, naming the key', (extra, message) => {
    expect(configErrorFor({ ...VALID, ...extra }).message).toContain(message);
  });
});

describe('parseRuntimeConfig telemetry', () => {
  it('is on unless the configuration switches it off', () => {
    expect(telemetryEnabled(parseRuntimeConfig(VALID))).toBe(true);
    expect(telemetryEnabled(parseRuntimeConfig({ ...VALID, telemetry: { enabled: true } }))).toBe(true);
    const off = parseRuntimeConfig({ ...VALID, telemetry: { enabled: false } });
    expect(off.telemetry).toStrictEqual({ enabled: false });
    expect(telemetryEnabled(off)).toBe(false);
  });

  it.each([
    [{ telemetry: { enabled: 'off' } }, '"telemetry.enabled" must be true or false'],
    [{ telemetry: {} }, '"telemetry.enabled" is missing'],
    [{ telemetry: { enabled: false, sampleRate: 0.1 } }, '"telemetry.sampleRate"'],
  ])('rejects %p, naming the key', (extra, message) => {
    expect(configErrorFor({ ...VALID, ...extra }).message).toContain(message);
  });
});

describe('the origins remotes may come from', () => {
  it('are the remote URLs’ own origins when the configuration names none', () => {
    expect(allowedRemoteOrigins(parseRuntimeConfig(VALID))).toEqual([
      'https://gifts.example.com',
      'https://redeem.example.com',
      'http://localhost:3003',
    ]);
  });

  it('are the configured ones otherwise, which every remote URL must be at', () => {
    const remoteOrigins = ['https://gifts.example.com', 'https://redeem.example.com', 'http://localhost:3003'];
    const config = parseRuntimeConfig({ ...VALID, remoteOrigins: [...remoteOrigins, 'https://spare.example.com'] });
    expect(allowedRemoteOrigins(config)).toEqual([...remoteOrigins, 'https://spare.example.com']);
  });

  it('refuse a remote URL outside them, naming its key and the URL', () => {
    const error = configErrorFor({ ...VALID, remoteOrigins: ['https://gifts.example.com', 'http://localhost:3003'] });
    expect(error).toBeInstanceOf(RemoteOriginError);
    expect((error as RemoteOriginError).urls).toEqual(['https://redeem.example.com/mf-manifest.json']);
    expect(error.message).toBe(
      'Invalid runtime configuration: "remotes.redeem" https://redeem.example.com/mf-manifest.json is not at an ' +
        'allowed remote origin ("remoteOrigins": https://gifts.example.com, http://localhost:3003)',
    );
  });

  it('tell apart a port, a scheme and a lookalike host', () => {
    const error = configErrorFor({
      ...VALID,
      remotes: {
        ...VALID.remotes,
        gifts: 'https://gifts.example.com:8443/mf-manifest.json',
        redeem: 'http://redeem.example.com/mf-manifest.json',
        content: 'https://gifts.example.com.evil.example/mf-manifest.json',
      },
      remoteOrigins: ['https://gifts.example.com', 'https://redeem.example.com'],
    }) as RemoteOriginError;
    expect(error.urls).toHaveLength(3);
  });

  it.each([
    ['a path', 'https://gifts.example.com/remotes'],
    ['a trailing slash', 'https://gifts.example.com/'],
    ['upper case', 'https://Gifts.example.com'],
    ['a default port', 'https://gifts.example.com:443'],
    ['credentials', 'https://user@gifts.example.com'],
    ['another scheme', 'ftp://gifts.example.com'],
    ['not a URL', 'gifts.example.com'],
  ])('must each be an origin as a browser writes it, not one with %s', (_label, value) => {
    const error = configErrorFor({ ...VALID, remoteOrigins: [value] });
    expect(error.message).toContain('"remoteOrigins.0" must be an origin');
    expect(error.message).toContain(`got "${value}"`);
  });

  it('isAllowedRemoteUrl checks the URL’s origin, and only for http(s) URLs', () => {
    const origins = ['https://gifts.example.com'];
    expect(isAllowedRemoteUrl('https://gifts.example.com/a/remoteEntry.js', origins)).toBe(true);
    expect(isAllowedRemoteUrl('https://gifts.example.com:444/remoteEntry.js', origins)).toBe(false);
    expect(isAllowedRemoteUrl('data:text/javascript,alert(1)', origins)).toBe(false);
    expect(isAllowedRemoteUrl('/relative.js', origins)).toBe(false);
  });
});

describe('parseRuntimeConfig builds per visitor', () => {
  const withBuilds = {
    ...VALID,
    remoteBuilds: { gifts: 'b-2', content: 'c.1' },
    remoteFallbacks: { gifts: 'https://gifts.example.com/builds/b-1/mf-manifest.json' },
    buildsUrl: '/remote-builds.json',
  };

  it("accepts each remote's build, its fallback and where to ask for the builds", () => {
    expect(parseRuntimeConfig(withBuilds)).toMatchObject(withBuilds);
  });

  it('names a build id that is not one, an unknown remote and a builds URL that is not a path', () => {
    const error = configErrorFor({
      ...withBuilds,
      remoteBuilds: { gifts: '../x', shop: 'b-1' },
      buildsUrl: 'https://elsewhere.example/remote-builds.json',
    });
    expect(error.message).toMatch(/"remoteBuilds\.gifts" must be a build id/);
    expect(error.message).toMatch(/unknown key "remoteBuilds\.shop"/);
    expect(error.message).toMatch(/"buildsUrl" must be a path on the host/);
  });

  it('refuses a fallback outside the origins remote code may come from', () => {
    expect(() =>
      parseRuntimeConfig({
        ...withBuilds,
        remoteFallbacks: { gifts: 'https://elsewhere.example/builds/b-1/mf-manifest.json' },
      }),
    ).toThrow(RemoteOriginError);
  });
});
