/** @jest-environment node */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, RemoteOriginError } from 'shared/runtime-config';
import { everyRemote } from 'shared/testing/runtime-config';
import {
  CONFIG_ENV,
  previewKeyEnv,
  previewKeysFromEnv,
  productionGaps,
  runtimeConfigFromEnv,
  unreadRemotesProblem,
} from './runtime-config-from-env';
import { REMOTE_NAMES, REMOTES } from 'shared/remotes';

const DEFAULTS = {
  // Each remote's server on this machine, at its port.
  remotes: everyRemote(),
  apiBaseUrl: 'http://localhost:3004',
  buildCheckIntervalMs: 3_600_000,
  remoteTimeoutMs: 10_000,
};

const FILE_CONFIG = {
  remotes: {
    ...everyRemote((name) => `https://cdn.example.com/${name}/mf-manifest.json`),
    gifts: 'https://cdn.example.com/gifts/mf-manifest.json',
    redeem: 'https://cdn.example.com/redeem/mf-manifest.json',
    content: 'https://cdn.example.com/content/mf-manifest.json',
  },
  apiBaseUrl: 'https://api.example.com',
};

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'runtime-config-test-'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function writeConfig(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** The error that reading `env` throws; fails the test when nothing is thrown. */
function errorFor(env: Record<string, string>): Error {
  try {
    runtimeConfigFromEnv(env);
  } catch (error) {
    expect(error).toBeInstanceOf(Error);
    return error as Error;
  }
  throw new Error(`expected ${JSON.stringify(env)} to be rejected`);
}

describe('runtimeConfigFromEnv from variables', () => {
  it('defaults to the local ports of every part', () => {
    expect(runtimeConfigFromEnv({})).toStrictEqual(DEFAULTS);
  });

  it('treats empty variables as unset', () => {
    const empty = Object.fromEntries(Object.values(CONFIG_ENV).map((name) => [name, '']));
    expect(runtimeConfigFromEnv({ ...empty, RUNTIME_CONFIG_FILE: '', REMOTE_GIFTS_PORT: '' })).toStrictEqual(DEFAULTS);
  });

  it('follows moved ports', () => {
    const config = runtimeConfigFromEnv({
      REMOTE_GIFTS_PORT: '4001',
      REMOTE_REDEEM_PORT: '4002',
      REMOTE_CONTENT_PORT: '4003',
      API_PORT: '4004',
    });
    expect(config.remotes).toStrictEqual({
      ...everyRemote(),
      gifts: 'http://localhost:4001/mf-manifest.json',
      redeem: 'http://localhost:4002/mf-manifest.json',
      content: 'http://localhost:4003/mf-manifest.json',
    });
    expect(config.apiBaseUrl).toBe('http://localhost:4004');
  });

  it('uses a remote URL as given, leaving the others at their defaults', () => {
    const config = runtimeConfigFromEnv({ REMOTE_CONTENT_URL: 'https://content.example.com/mf-manifest.json' });
    expect(config.remotes).toStrictEqual({
      ...DEFAULTS.remotes,
      content: 'https://content.example.com/mf-manifest.json',
    });
  });

  it('prefers a URL over the port of the same part', () => {
    const config = runtimeConfigFromEnv({
      REMOTE_GIFTS_URL: 'https://gifts.example.com/mf-manifest.json',
      REMOTE_GIFTS_PORT: 'not-a-port',
      API_BASE_URL: 'https://api.example.com/v1',
      API_PORT: 'not-a-port',
    });
    expect(config.remotes.gifts).toBe('https://gifts.example.com/mf-manifest.json');
    expect(config.apiBaseUrl).toBe('https://api.example.com/v1');
  });

  it('reads the build check interval and the remote timeout', () => {
    const config = runtimeConfigFromEnv({ BUILD_CHECK_INTERVAL_MS: '60000', REMOTE_TIMEOUT_MS: '2500' });
    expect(config.buildCheckIntervalMs).toBe(60_000);
    expect(config.remoteTimeoutMs).toBe(2_500);
  });

  it.each([
    ['BUILD_CHECK_INTERVAL_MS', 'hourly'],
    ['BUILD_CHECK_INTERVAL_MS', '0'],
    ['REMOTE_TIMEOUT_MS', '1.5'],
    ['REMOTE_TIMEOUT_MS', '-1'],
  ])('rejects %s=%p, naming the variable', (name, value) => {
    const error = errorFor({ [name]: value });
    expect(error.message).toContain(name);
    expect(error.message).toContain(`"${value}"`);
  });

  it('rejects a bad port, naming its variable', () => {
    expect(errorFor({ REMOTE_REDEEM_PORT: '99999' }).message).toContain('REMOTE_REDEEM_PORT');
  });

  it('names both the key and the variable of an invalid remote URL', () => {
    const error = errorFor({ REMOTE_GIFTS_URL: 'gifts.example.com/mf-manifest.json' });
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toContain('remotes.gifts');
    expect(error.message).toContain('REMOTE_GIFTS_URL');
    expect(error.message).not.toContain('REMOTE_REDEEM_URL');
    expect(error.message).not.toContain('API_BASE_URL');
  });

  it('names both the key and the variable of an invalid API URL', () => {
    const error = errorFor({ API_BASE_URL: 'ftp://api.example.com' });
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toContain('apiBaseUrl');
    expect(error.message).toContain('API_BASE_URL');
  });

  it('names every invalid variable at once', () => {
    const error = errorFor({ REMOTE_REDEEM_URL: 'nope', REMOTE_CONTENT_URL: 'also nope' });
    expect(error.message).toContain('REMOTE_REDEEM_URL');
    expect(error.message).toContain('REMOTE_CONTENT_URL');
  });
});

describe('runtimeConfigFromEnv from RUNTIME_CONFIG_FILE', () => {
  it('uses a valid file as is, with defaults filled in', () => {
    const path = writeConfig('valid.json', JSON.stringify(FILE_CONFIG, null, 2));
    expect(runtimeConfigFromEnv({ RUNTIME_CONFIG_FILE: path })).toStrictEqual({
      ...FILE_CONFIG,
      buildCheckIntervalMs: 3_600_000,
      remoteTimeoutMs: 10_000,
    });
  });

  it('keeps the intervals the file sets', () => {
    const path = writeConfig(
      'intervals.json',
      JSON.stringify({ ...FILE_CONFIG, buildCheckIntervalMs: 5, remoteTimeoutMs: 6 }),
    );
    const config = runtimeConfigFromEnv({ RUNTIME_CONFIG_FILE: path });
    expect(config.buildCheckIntervalMs).toBe(5);
    expect(config.remoteTimeoutMs).toBe(6);
  });

  it('ignores the individual variables when a file is named', () => {
    const path = writeConfig('wins.json', JSON.stringify(FILE_CONFIG));
    const config = runtimeConfigFromEnv({
      RUNTIME_CONFIG_FILE: path,
      API_BASE_URL: 'http://elsewhere.example',
      REMOTE_GIFTS_PORT: 'not-a-port',
      REMOTE_TIMEOUT_MS: 'soon',
    });
    expect(config.apiBaseUrl).toBe(FILE_CONFIG.apiBaseUrl);
    expect(config.remoteTimeoutMs).toBe(10_000);
  });

  it('rejects a file that is not valid JSON, naming the file', () => {
    const path = writeConfig('broken.json', '{ "remotes": ');
    const error = errorFor({ RUNTIME_CONFIG_FILE: path });
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toContain(path);
    expect(error.message).toContain('not valid JSON');
  });

  it('rejects a missing file, naming it', () => {
    const path = join(dir, 'does-not-exist.json');
    const error = errorFor({ RUNTIME_CONFIG_FILE: path });
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toContain(path);
  });

  it('rejects a folder, naming it', () => {
    const error = errorFor({ RUNTIME_CONFIG_FILE: dir });
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toContain(dir);
  });

  it('names the key and the file of a schema error', () => {
    const path = writeConfig('bad-url.json', JSON.stringify({ ...FILE_CONFIG, apiBaseUrl: 'not a url' }));
    const error = errorFor({ RUNTIME_CONFIG_FILE: path });
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toContain('"apiBaseUrl"');
    expect(error.message).toContain(path);
  });

  it('names an unknown key and the file', () => {
    const path = writeConfig('unknown-key.json', JSON.stringify({ ...FILE_CONFIG, routeGrants: { shop: ['/shop'] } }));
    const error = errorFor({ RUNTIME_CONFIG_FILE: path });
    expect(error.message).toContain('"routeGrants.shop"');
    expect(error.message).toContain(path);
  });
});

describe('runtimeConfigFromEnv: the origins remotes may come from', () => {
  it('reads REMOTE_ORIGINS, comma-separated, and leaves it out when unset', () => {
    const config = runtimeConfigFromEnv({
      REMOTE_GIFTS_URL: 'https://cdn.example.com/gifts/mf-manifest.json',
      REMOTE_REDEEM_URL: 'https://cdn.example.com/redeem/mf-manifest.json',
      REMOTE_CONTENT_URL: 'https://content.example.com/mf-manifest.json',
      REMOTE_ORIGINS: ' https://cdn.example.com, https://content.example.com ,',
    });
    expect(config.remoteOrigins).toEqual(['https://cdn.example.com', 'https://content.example.com']);
    expect(runtimeConfigFromEnv({})).not.toHaveProperty('remoteOrigins');
  });

  it('refuses to start with a remote URL outside them, naming the URL, its key and both variables', () => {
    const error = errorFor({
      REMOTE_CONTENT_URL: 'https://content.example.com/mf-manifest.json',
      REMOTE_ORIGINS: 'http://localhost:3001,http://localhost:3002',
    });
    expect(error).toBeInstanceOf(RemoteOriginError);
    expect(error.message).toBe(
      'Invalid runtime configuration: "remotes.content" https://content.example.com/mf-manifest.json is not at an ' +
        'allowed remote origin ("remoteOrigins": http://localhost:3001, http://localhost:3002) ' +
        '(remotes.content is set by REMOTE_CONTENT_URL; remoteOrigins is set by REMOTE_ORIGINS)',
    );
  });

  it('refuses an entry that is not an origin, naming the variable and the value', () => {
    const error = errorFor({ REMOTE_ORIGINS: 'http://localhost:3001,https://cdn.example.com/gifts/' });
    expect(error.message).toContain('"remoteOrigins.1" must be an origin');
    expect(error.message).toContain('got "https://cdn.example.com/gifts/"');
    expect(error.message).toContain('remoteOrigins is set by REMOTE_ORIGINS');
  });

  it('refuses a file whose remote is outside its remoteOrigins, naming the file', () => {
    const path = writeConfig(
      'outside.json',
      JSON.stringify({ ...FILE_CONFIG, remoteOrigins: ['https://cdn.example.com', 'https://other.example.com'] }),
    );
    expect(runtimeConfigFromEnv({ RUNTIME_CONFIG_FILE: path }).remoteOrigins).toHaveLength(2);
    const outside = writeConfig(
      'outside-2.json',
      JSON.stringify({
        ...FILE_CONFIG,
        remotes: { ...FILE_CONFIG.remotes, redeem: 'https://redeem.evil.example/mf-manifest.json' },
        remoteOrigins: ['https://cdn.example.com'],
      }),
    );
    const error = errorFor({ RUNTIME_CONFIG_FILE: outside });
    expect(error).toBeInstanceOf(RemoteOriginError);
    expect(error.message).toContain('"remotes.redeem" https://redeem.evil.example/mf-manifest.json');
    expect(error.message).toContain(outside);
  });
});

describe('runtimeConfigFromEnv third parties', () => {
  it('leaves every third party off when none of their variables is set', () => {
    const config = runtimeConfigFromEnv({});
    expect(config.analytics).toBeUndefined();
    expect(config.tagManager).toBeUndefined();
    expect(config.chat).toBeUndefined();
    expect(config.icons).toBeUndefined();
  });

  it('switches each on from its variables', () => {
    const config = runtimeConfigFromEnv({
      MIXPANEL_TOKEN: 'abc123',
      MIXPANEL_API_HOST: 'https://api-eu.mixpanel.com',
      GTAG_MEASUREMENT_ID: 'G-TEST1234',
      CRISP_WEBSITE_ID: '0a1b2c3d-0000-4000-8000-123456789abc',
      CRISP_SCRIPT_URL: 'http://127.0.0.1:9000/l.js',
      ICON_SERVICE_URL: 'https://api.iconify.design',
      ICON_TIMEOUT_MS: '4000',
    });
    expect(config.analytics).toStrictEqual({ mixpanelToken: 'abc123', apiHost: 'https://api-eu.mixpanel.com' });
    expect(config.tagManager).toStrictEqual({ measurementId: 'G-TEST1234' });
    expect(config.chat).toStrictEqual({
      crispWebsiteId: '0a1b2c3d-0000-4000-8000-123456789abc',
      scriptUrl: 'http://127.0.0.1:9000/l.js',
    });
    expect(config.icons).toStrictEqual({ serviceUrl: 'https://api.iconify.design', timeoutMs: 4000 });
  });

  it('gives the icon service its default timeout', () => {
    expect(runtimeConfigFromEnv({ ICON_SERVICE_URL: 'https://api.iconify.design' }).icons?.timeoutMs).toBe(3_000);
  });

  it('refuses a setting whose main variable is missing, naming both', () => {
    const error = errorFor({ MIXPANEL_API_HOST: 'https://api-eu.mixpanel.com' });
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toContain('MIXPANEL_API_HOST');
    expect(error.message).toContain('MIXPANEL_TOKEN');
  });

  it.each([
    ['ICON_TIMEOUT_MS', '9000', 'icons.timeoutMs'],
    ['ICON_TIMEOUT_MS', '1000', 'icons.timeoutMs'],
    ['GTAG_MEASUREMENT_ID', 'UA 123', 'tagManager.measurementId'],
    ['CRISP_SCRIPT_URL', 'javascript:alert(1)', 'chat.scriptUrl'],
  ])('rejects %s=%p, naming the key and the variable', (name, value, key) => {
    const env: Record<string, string> = {
      ICON_SERVICE_URL: 'https://api.iconify.design',
      GTAG_MEASUREMENT_ID: 'G-TEST1234',
      CRISP_WEBSITE_ID: 'site-1',
      [name]: value,
    };
    const error = errorFor(env);
    expect(error.message).toContain(`"${key}"`);
    expect(error.message).toContain(name);
  });
});

describe('runtimeConfigFromEnv telemetry', () => {
  it('leaves it on, unsaid, when TELEMETRY is unset or empty', () => {
    expect(runtimeConfigFromEnv({}).telemetry).toBeUndefined();
    expect(runtimeConfigFromEnv({ TELEMETRY: '' })).toStrictEqual(DEFAULTS);
  });

  it('switches it off with TELEMETRY=off, and says on with TELEMETRY=on', () => {
    expect(runtimeConfigFromEnv({ TELEMETRY: 'off' }).telemetry).toStrictEqual({ enabled: false });
    expect(runtimeConfigFromEnv({ TELEMETRY: 'on' }).telemetry).toStrictEqual({ enabled: true });
    expect(CONFIG_ENV['telemetry.enabled']).toBe('TELEMETRY');
  });

  it.each(['false', 'no', 'OFF'])('refuses TELEMETRY=%s, naming the variable and what it takes', (value) => {
    const error = errorFor({ TELEMETRY: value });
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toBe(`TELEMETRY must be "on" or "off", got "${value}"`);
  });
});

describe('previewKeysFromEnv', () => {
  const key = 'k'.repeat(32);

  it("reads each remote's preview key from the variable next to its URL's, and none when unset or empty", () => {
    expect(previewKeyEnv('gifts')).toBe('REMOTE_GIFTS_PREVIEW_KEY');
    expect(previewKeysFromEnv({})).toStrictEqual({});
    expect(previewKeysFromEnv({ REMOTE_GIFTS_PREVIEW_KEY: key, REMOTE_CONTENT_PREVIEW_KEY: '' })).toStrictEqual({
      gifts: [key],
    });
  });

  it('reads a list of keys, current and next, so a key is rotated without a gap', () => {
    const next = 'n'.repeat(40);
    expect(previewKeysFromEnv({ REMOTE_GIFTS_PREVIEW_KEY: `${key}, ${next}` })).toStrictEqual({ gifts: [key, next] });
  });

  it('refuses a key given to two remotes, naming both variables, never the key', () => {
    let error: unknown;
    try {
      previewKeysFromEnv({ REMOTE_GIFTS_PREVIEW_KEY: key, REMOTE_REDEEM_PREVIEW_KEY: `${'r'.repeat(32)},${key}` });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(
      /^REMOTE_REDEEM_PREVIEW_KEY's key 2 is also a key of REMOTE_GIFTS_PREVIEW_KEY: each remote needs keys of its own/,
    );
    expect((error as Error).message).not.toContain(key);
  });

  it('refuses a key shorter than 32 characters, naming the variable, never the key', () => {
    const short = 'secret-but-short';
    let error: unknown;
    try {
      previewKeysFromEnv({ REMOTE_REDEEM_PREVIEW_KEY: short });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/^REMOTE_REDEEM_PREVIEW_KEY must be at least 32 characters \(it has 16\)/);
    expect((error as Error).message).not.toContain(short);
  });
});

describe('productionGaps', () => {
  const PRODUCTION = {
    HOST_ORIGIN: 'https://gifts.example.com',
    ...Object.fromEntries(
      REMOTE_NAMES.map((name) => [REMOTES[name].urlEnv, `https://cdn.example.com/${name}/mf-manifest.json`]),
    ),
    API_BASE_URL: 'https://gifts.example.com',
    PAGE_TICKET_SECRETS: 't'.repeat(32),
  };
  const variablesOf = (gaps: string[]) => gaps.map((gap) => gap.split(' ')[0]);

  it('asks nothing of development (HOST_ORIGIN unset), nor of a production deployment naming everything', () => {
    expect(productionGaps({}, { telemetry: true })).toEqual([]);
    expect(productionGaps(PRODUCTION, { telemetry: true })).toEqual([]);
  });

  it('names every registered remote URL, the API and the ticket secret a production deployment lacks, all at once', () => {
    const gaps = productionGaps({ HOST_ORIGIN: 'https://gifts.example.com' }, { telemetry: true });
    expect(variablesOf(gaps)).toEqual([
      ...REMOTE_NAMES.map((name) => REMOTES[name].urlEnv),
      'API_BASE_URL',
      'PAGE_TICKET_SECRETS',
    ]);
    for (const gap of gaps) expect(gap).toContain(' must be set when HOST_ORIGIN is (a production deployment)');
  });

  it('takes the remotes and the API from RUNTIME_CONFIG_FILE, the ticket secret from its file, and none with telemetry off', () => {
    const fromFile = { HOST_ORIGIN: 'https://gifts.example.com', RUNTIME_CONFIG_FILE: '/etc/gift-box/runtime.json' };
    expect(variablesOf(productionGaps(fromFile, { telemetry: true }))).toEqual(['PAGE_TICKET_SECRETS']);
    expect(
      productionGaps({ ...fromFile, PAGE_TICKET_SECRETS_FILE: '/run/credentials/t' }, { telemetry: true }),
    ).toEqual([]);
    expect(productionGaps(fromFile, { telemetry: false })).toEqual([]);
  });
});

describe('previewKeysFromEnv from files', () => {
  it('reads a key from REMOTE_<NAME>_PREVIEW_KEY_FILE, and refuses both forms at once', () => {
    const variable = previewKeyEnv('gifts');
    const file = join(dir, 'preview-key');
    writeFileSync(file, `${'k'.repeat(32)}\n`);
    expect(previewKeysFromEnv({ [`${variable}_FILE`]: file })).toStrictEqual({ gifts: ['k'.repeat(32)] });
    expect(() => previewKeysFromEnv({ [variable]: 'k'.repeat(32), [`${variable}_FILE`]: file })).toThrow(
      `${variable} and ${variable}_FILE are both set: set one of them`,
    );
  });
});

describe('runtimeConfigFromEnv: remotes added to the registry’s', () => {
  const NEWS = {
    ADDED_REMOTES: 'news,blog',
    REMOTE_NEWS_URL: 'https://news.example.com/mf-manifest.json',
    REMOTE_NEWS_PATHS: '/news, /news/:storyId',
    REMOTE_BLOG_URL: 'https://blog.example.com/mf-manifest.json',
    REMOTE_BLOG_PATHS: '/blog',
  };

  it('composes each after the registry’s, in the order ADDED_REMOTES names them, with its grant', () => {
    const config = runtimeConfigFromEnv(NEWS);
    expect(Object.keys(config.remotes)).toEqual([...REMOTE_NAMES, 'news', 'blog']);
    expect(config.remotes.news).toBe(NEWS.REMOTE_NEWS_URL);
    expect(config.routeGrants).toStrictEqual({ news: ['/news', '/news/:storyId'], blog: ['/blog'] });
    expect(runtimeConfigFromEnv({})).not.toHaveProperty('routeGrants');
  });

  it('replaces a registry remote’s grant with its REMOTE_<NAME>_PATHS', () => {
    expect(runtimeConfigFromEnv({ REMOTE_CONTENT_PATHS: '/,/about' }).routeGrants).toStrictEqual({
      content: ['/', '/about'],
    });
  });

  it('names every missing or bad variable of an added remote at once, in production or not', () => {
    const message = errorFor({ ADDED_REMOTES: 'news,Blog', REMOTE_NEWS_PATHS: '/news' }).message;
    expect(message).toContain('REMOTE_NEWS_URL is not set');
    expect(message).toContain('"Blog"');
  });

  it('names the variable of an added remote’s URL outside REMOTE_ORIGINS', () => {
    const error = errorFor({
      ...NEWS,
      REMOTE_ORIGINS: 'http://localhost:3001,http://localhost:3002,http://localhost:3003',
    });
    expect(error.message).toContain('remotes.news is set by REMOTE_NEWS_URL');
  });

  it('refuses a path granted to two remotes, naming both', () => {
    expect(errorFor({ ...NEWS, REMOTE_BLOG_PATHS: '/about' }).message).toContain(
      'the path /about is granted to both content and blog',
    );
  });

  it('reads added remotes and their grants from RUNTIME_CONFIG_FILE as the schema gives them', () => {
    const file = writeConfig(
      'added.json',
      JSON.stringify({
        ...FILE_CONFIG,
        remotes: { ...FILE_CONFIG.remotes, news: 'https://cdn.example.com/news/mf-manifest.json' },
        routeGrants: { news: ['/news'] },
        remoteOrigins: ['https://cdn.example.com'],
      }),
    );
    const config = runtimeConfigFromEnv({ RUNTIME_CONFIG_FILE: file });
    expect(config.remotes.news).toBe('https://cdn.example.com/news/mf-manifest.json');
    expect(config.routeGrants).toStrictEqual({ news: ['/news'] });
  });

  it('reads an added remote’s preview keys from REMOTE_<NAME>_PREVIEW_KEY', () => {
    const key = 'n'.repeat(32);
    expect(previewKeyEnv('news')).toBe('REMOTE_NEWS_PREVIEW_KEY');
    expect(previewKeysFromEnv({ REMOTE_NEWS_PREVIEW_KEY: key }, [...REMOTE_NAMES, 'news'])).toStrictEqual({
      news: [key],
    });
    expect(previewKeysFromEnv({ REMOTE_NEWS_PREVIEW_KEY: key })).toStrictEqual({});
  });
});

describe('unreadRemotesProblem', () => {
  const added = {
    ADDED_REMOTES: 'news',
    REMOTE_NEWS_URL: 'http://localhost:3005/mf-manifest.json',
    REMOTE_NEWS_PATHS: '/news',
  };

  it('refuses REMOTE_REFRESH_MS=0 with an added remote, which would then have no page', () => {
    expect(unreadRemotesProblem(runtimeConfigFromEnv(added), 0)).toMatch(
      /^REMOTE_REFRESH_MS=0 reads no remote's manifest, so news, which this build does not know, would have no page/,
    );
  });

  it('accepts it for the registry alone, and any refresh with added remotes', () => {
    expect(unreadRemotesProblem(runtimeConfigFromEnv({}), 0)).toBeUndefined();
    expect(unreadRemotesProblem(runtimeConfigFromEnv(added), 5_000)).toBeUndefined();
  });
});
