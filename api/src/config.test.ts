import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_ROOT, readServerConfig } from './config';
import { envProblemOf } from 'server/testing/env-problem';

describe('readServerConfig', () => {
  it('has defaults for a laptop', () => {
    expect(readServerConfig({})).toEqual({
      port: 3004,
      listenHost: undefined,
      hostOrigin: expect.any(RegExp),
      corsOrigins: [],
      trustProxy: false,
      logLevel: 'info',
      gameWinRate: 0.3,
      requestTimeoutMs: 10_000,
      giftTtlDays: 30,
      redeemSessionTtlMinutes: 30,
      limits: {
        playsPerVisitorPerDay: 5,
        playsPerIpPerDay: 50,
        redeemAttemptsPerIpPerMinute: 10,
        redeemOpensPerIpPerMinute: 30,
        redeemSessionsPerGift: 5,
        unknownRedeemReadsPerIpPerMinute: 20,
        telemetryBatchesPerIpPerMinute: 120,
      },
      builds: {
        sources: {
          host: 'http://localhost:3000/_app/builds/latest.json',
          gifts: 'http://localhost:3001/builds/latest.json',
          redeem: 'http://localhost:3002/builds/latest.json',
          content: 'http://localhost:3003/builds/latest.json',
        },
        manifests: {
          gifts: 'http://localhost:3001/mf-manifest.json',
          redeem: 'http://localhost:3002/mf-manifest.json',
          content: 'http://localhost:3003/mf-manifest.json',
        },
        grants: {},
        pollMs: 60_000,
      },
      apiOrigin: 'http://localhost:3004',
      databaseUrl: undefined,
      databasePoolSize: 10,
      databaseConnectRetryMs: 30_000,
      pgliteDataDir: join(API_ROOT, '.data', 'pglite'),
      catalogueFile: join(API_ROOT, 'catalogue.json'),
      shutdownDelayMs: 0,
      metrics: { metricsPort: undefined, metricsHost: '127.0.0.1' },
      // Development: a random secret of the process's own, the plain cookie name, not Secure.
      visitorCookie: { name: 'p_visitor', secure: false, secrets: [expect.any(Buffer)] },
      addressHashKey: expect.any(Buffer),
      pageTicketSecrets: [],
    });
  });

  it('reads every variable', () => {
    const config = readServerConfig({
      API_PORT: '4004',
      API_HOST: '127.0.0.1',
      HOST_ORIGIN: 'https://gifts.example.com/',
      CORS_ORIGINS: 'http://localhost:4301, http://localhost:4302',
      TRUST_PROXY: 'loopback, 10.0.0.0/8, 2001:db8::/32, 192.0.2.7, 172.16.0.0/255.240.0.0',
      LOG_LEVEL: 'warn',
      GAME_WIN_RATE: '1',
      GIFT_TTL_DAYS: '7',
      REDEEM_SESSION_TTL_MINUTES: '15',
      PLAYS_PER_VISITOR_PER_DAY: '3',
      PLAYS_PER_IP_PER_DAY: '30',
      REDEEM_ATTEMPTS_PER_IP_PER_MINUTE: '6',
      REDEEM_OPENS_PER_IP_PER_MINUTE: '12',
      REDEEM_SESSIONS_PER_GIFT: '3',
      UNKNOWN_REDEEM_READS_PER_IP_PER_MINUTE: '8',
      DATABASE_URL: 'postgres://gifts:secret@db:5432/gifts',
      DATABASE_POOL_SIZE: '4',
      DATABASE_CONNECT_RETRY_MS: '120000',
      PGLITE_DATA_DIR: 'memory://',
      PRIZE_CATALOGUE_FILE: '/etc/gifts/catalogue.json',
      SHUTDOWN_DELAY_MS: '5000',
      REQUEST_TIMEOUT_MS: '2000',
      TELEMETRY_BATCHES_PER_IP_PER_MINUTE: '30',
      REMOTE_GIFTS_URL: 'https://gifts.example.com/mf-manifest.json',
      REMOTE_REDEEM_URL: 'https://cdn.example.com/redeem/builds/b7/mf-manifest.json',
      REMOTE_CONTENT_PORT: '4003',
      REMOTE_CONTENT_URL: 'https://content.example.com/mf-manifest.json',
      BUILDS_POLL_MS: '15000',
      API_BASE_URL: 'https://api.gifts.example.com/',
      METRICS_PORT: '9304',
      METRICS_HOST: '10.0.0.5',
      VISITOR_COOKIE_SECRETS: `${'n'.repeat(32)}, ${'o'.repeat(32)}`,
      IP_HASH_SECRET: 'i'.repeat(32),
      PAGE_TICKET_SECRETS: 't'.repeat(32),
    });
    expect(config).toEqual({
      port: 4004,
      listenHost: '127.0.0.1',
      hostOrigin: 'https://gifts.example.com',
      corsOrigins: ['http://localhost:4301', 'http://localhost:4302'],
      trustProxy: ['loopback', '10.0.0.0/8', '2001:db8::/32', '192.0.2.7', '172.16.0.0/255.240.0.0'],
      logLevel: 'warn',
      gameWinRate: 1,
      requestTimeoutMs: 2000,
      giftTtlDays: 7,
      redeemSessionTtlMinutes: 15,
      limits: {
        playsPerVisitorPerDay: 3,
        playsPerIpPerDay: 30,
        redeemAttemptsPerIpPerMinute: 6,
        redeemOpensPerIpPerMinute: 12,
        redeemSessionsPerGift: 3,
        unknownRedeemReadsPerIpPerMinute: 8,
        telemetryBatchesPerIpPerMinute: 30,
      },
      builds: {
        sources: {
          host: 'https://gifts.example.com/_app/builds/latest.json',
          gifts: 'https://gifts.example.com/builds/latest.json',
          // A remote pinned to one build: that build's own latest.json, which always names it.
          redeem: 'https://cdn.example.com/redeem/builds/b7/builds/latest.json',
          content: 'https://content.example.com/builds/latest.json',
        },
        manifests: {
          gifts: 'https://gifts.example.com/mf-manifest.json',
          redeem: 'https://cdn.example.com/redeem/builds/b7/mf-manifest.json',
          content: 'https://content.example.com/mf-manifest.json',
        },
        grants: {},
        pollMs: 15_000,
      },
      apiOrigin: 'https://api.gifts.example.com',
      databaseUrl: 'postgres://gifts:secret@db:5432/gifts',
      databasePoolSize: 4,
      databaseConnectRetryMs: 120_000,
      pgliteDataDir: 'memory://',
      catalogueFile: '/etc/gifts/catalogue.json',
      shutdownDelayMs: 5000,
      metrics: { metricsPort: 9304, metricsHost: '10.0.0.5' },
      visitorCookie: {
        name: '__Host-p_visitor',
        secure: true,
        secrets: [Buffer.from('n'.repeat(32)), Buffer.from('o'.repeat(32))],
      },
      addressHashKey: Buffer.from('i'.repeat(32)),
      pageTicketSecrets: ['t'.repeat(32)],
    });
  });

  it("needs the pages' ticket secret in production, and takes none in development", () => {
    const production = {
      HOST_ORIGIN: 'https://gifts.example.com',
      VISITOR_COOKIE_SECRETS: 'n'.repeat(32),
      API_BASE_URL: 'https://gifts.example.com',
      BUILDS_POLL_MS: '0',
    };
    expect(() => readServerConfig(production)).toThrow(
      /^PAGE_TICKET_SECRETS must be set when HOST_ORIGIN is \(a production deployment\)/,
    );
    expect(
      readServerConfig({ ...production, PAGE_TICKET_SECRETS: `${'a'.repeat(32)},${'b'.repeat(32)}` }).pageTicketSecrets,
    ).toEqual(['a'.repeat(32), 'b'.repeat(32)]);
    expect(() => readServerConfig({ PAGE_TICKET_SECRETS: 'short' })).toThrow(
      /^PAGE_TICKET_SECRETS must hold secrets of at least 32/,
    );
    expect(readServerConfig({}).pageTicketSecrets).toEqual([]);
  });

  it('names every variable a production deployment is missing at once, each remote it reads builds from', () => {
    const missing = [
      'VISITOR_COOKIE_SECRETS',
      'PAGE_TICKET_SECRETS',
      'API_BASE_URL',
      'REMOTE_REDEEM_URL',
      'REMOTE_CONTENT_URL',
    ];
    const production = {
      HOST_ORIGIN: 'https://gifts.example.com',
      REMOTE_GIFTS_URL: 'https://g.example.com/mf-manifest.json',
    };
    const lines = envProblemOf(() => readServerConfig(production)).split('\n');
    expect(lines.map((line) => line.split(' ')[0])).toEqual(missing);
    for (const line of lines) expect(line).toContain(' must be set when HOST_ORIGIN is (a production deployment): ');
    // Builds not read: the remotes' URLs are not needed.
    expect(envProblemOf(() => readServerConfig({ ...production, BUILDS_POLL_MS: '0' })).split('\n')).toHaveLength(3);
  });

  it('reads each secret from the file its <NAME>_FILE names, never naming what the file holds', () => {
    const folder = mkdtempSync(join(tmpdir(), 'api-config-'));
    const write = (name: string, text: string) => {
      writeFileSync(join(folder, name), text);
      return join(folder, name);
    };
    try {
      const config = readServerConfig({
        DATABASE_URL_FILE: write('database-url', 'postgres://gifts:pa55word@db:5432/gifts\n'),
        VISITOR_COOKIE_SECRETS_FILE: write('cookie', `${'n'.repeat(32)},${'o'.repeat(32)}\n`),
        IP_HASH_SECRET_FILE: write('ip', `${'i'.repeat(32)}\n`),
        PAGE_TICKET_SECRETS_FILE: write('ticket', `${'t'.repeat(32)}\n`),
      });
      expect(config.databaseUrl).toBe('postgres://gifts:pa55word@db:5432/gifts');
      expect(config.visitorCookie.secrets).toEqual([Buffer.from('n'.repeat(32)), Buffer.from('o'.repeat(32))]);
      expect(config.addressHashKey).toEqual(Buffer.from('i'.repeat(32)));
      expect(config.pageTicketSecrets).toEqual(['t'.repeat(32)]);

      const problem = envProblemOf(() =>
        readServerConfig({
          DATABASE_URL_FILE: write('bad-url', 'mysql://gifts:pa55word@db/gifts\n'),
          IP_HASH_SECRET: 'i'.repeat(32),
          IP_HASH_SECRET_FILE: write('ip-again', 'i'.repeat(32)),
          PAGE_TICKET_SECRETS_FILE: join(folder, 'absent'),
        }),
      );
      expect(problem).toBe(
        [
          'DATABASE_URL must be a PostgreSQL URL such as postgres://user:password@localhost:5432/gifts',
          'IP_HASH_SECRET and IP_HASH_SECRET_FILE are both set: set one of them',
          `PAGE_TICKET_SECRETS_FILE names a file that cannot be read: ${join(folder, 'absent')} (ENOENT)`,
        ].join('\n'),
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('reads the host’s builds at its port on this machine while HOST_ORIGIN is unset', () => {
    expect(readServerConfig({ HOST_PORT: '4000' }).builds.sources.host).toBe(
      'http://localhost:4000/_app/builds/latest.json',
    );
  });

  it('resolves relative paths against the working directory', () => {
    const config = readServerConfig({ PGLITE_DATA_DIR: 'data/pglite' });
    expect(config.pgliteDataDir).toBe(join(process.cwd(), 'data', 'pglite'));
  });

  it('starts a new PGlite folder from PGLITE_INITIAL_DATA, and refuses one that names no file before opening anything', () => {
    const dir = mkdtempSync(join(tmpdir(), 'api-config-'));
    try {
      const dump = join(dir, 'initial.tar.gz');
      writeFileSync(dump, '');
      expect(readServerConfig({ PGLITE_INITIAL_DATA: dump }).pgliteInitialData).toBe(dump);
      const missing = join(dir, 'missing.tar.gz');
      expect(() => readServerConfig({ PGLITE_INITIAL_DATA: missing })).toThrow(
        `PGLITE_INITIAL_DATA must be an existing file, got "${missing}"`,
      );
      expect(() => readServerConfig({ PGLITE_INITIAL_DATA: dir })).toThrow(
        'PGLITE_INITIAL_DATA must be an existing file',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each(['true', '1'])('refuses TRUST_PROXY=%s, which would let any client choose its address', (value) => {
    expect(() => readServerConfig({ TRUST_PROXY: value })).toThrow(
      `TRUST_PROXY=${value} would believe X-Forwarded-For from any client, so anyone could choose their own address and escape the per-address limits`,
    );
  });

  it.each([
    ['GAME_WIN_RATE', '1.5', 'GAME_WIN_RATE must be a number from 0 to 1, got "1.5"'],
    ['GAME_WIN_RATE', 'often', 'GAME_WIN_RATE must be a number from 0 to 1, got "often"'],
    ['LOG_LEVEL', 'loud', 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"'],
    [
      'TRUST_PROXY',
      'everyone',
      'TRUST_PROXY must be comma-separated proxy addresses, CIDR ranges or names (loopback, linklocal, uniquelocal); not valid: "everyone"',
    ],
    ['TRUST_PROXY', '10.0.0.0/33, ::1', 'not valid: "10.0.0.0/33"'],
    ['TRUST_PROXY', '10.0.0.256', 'not valid: "10.0.0.256"'],
    ['TRUST_PROXY', 'fe80::/129', 'not valid: "fe80::/129"'],
    ['SHUTDOWN_DELAY_MS', '-5', 'SHUTDOWN_DELAY_MS must be a whole number of milliseconds from 0 to 120000, got "-5"'],
    ['REQUEST_TIMEOUT_MS', '0', 'REQUEST_TIMEOUT_MS must be a whole number from 500 to 120000, got "0"'],
    ['CORS_ORIGINS', 'localhost:4301', 'CORS_ORIGINS must be comma-separated origins'],
    ['DATABASE_URL', 'mysql://db/gifts', 'DATABASE_URL must be a PostgreSQL URL'],
    ['API_PORT', '70000', 'API_PORT must be a port number between 1 and 65535, got "70000"'],
    ['GIFT_TTL_DAYS', '0', 'GIFT_TTL_DAYS must be a positive whole number, got "0"'],
    ['REMOTE_GIFTS_URL', 'gifts.example.com', 'REMOTE_GIFTS_URL must be an http(s) URL'],
    ['REMOTE_REDEEM_PORT', 'x', 'REMOTE_REDEEM_PORT must be a port number between 1 and 65535, got "x"'],
    ['BUILDS_POLL_MS', 'soon', 'BUILDS_POLL_MS must be a whole number of milliseconds from 0 to 86400000, got "soon"'],
    ['METRICS_PORT', '0', 'METRICS_PORT must be a port number between 1 and 65535, got "0"'],
    [
      'TELEMETRY_BATCHES_PER_IP_PER_MINUTE',
      '0',
      'TELEMETRY_BATCHES_PER_IP_PER_MINUTE must be a positive whole number, got "0"',
    ],
  ])('names %s when it is %j', (name, value, message) => {
    expect(() => readServerConfig({ [name]: value })).toThrow(message);
  });

  it('reports every problem at once', () => {
    expect(() => readServerConfig({ GAME_WIN_RATE: '2', PLAYS_PER_IP_PER_DAY: '-1' })).toThrow(
      /GAME_WIN_RATE[\s\S]*\n[\s\S]*PLAYS_PER_IP_PER_DAY/,
    );
  });

  it('composes the remotes ADDED_REMOTES names after the registry’s, reading their builds beside their manifests', () => {
    const { builds } = readServerConfig({
      ADDED_REMOTES: 'news',
      REMOTE_NEWS_URL: 'https://news.example.com/mf-manifest.json',
      REMOTE_NEWS_PATHS: '/news,/news/:slug',
      REMOTE_CONTENT_PATHS: '/,/about',
    });
    expect(Object.keys(builds.manifests)).toEqual(['gifts', 'redeem', 'content', 'news']);
    expect(builds.manifests.news).toBe('https://news.example.com/mf-manifest.json');
    expect(builds.sources.news).toBe('https://news.example.com/builds/latest.json');
    expect(builds.grants).toEqual({ content: ['/', '/about'], news: ['/news', '/news/:slug'] });
  });

  it('names an added remote’s missing variables with every other problem', () => {
    const lines = envProblemOf(() =>
      readServerConfig({ HOST_ORIGIN: 'https://gifts.example.com', ADDED_REMOTES: 'news' }),
    );
    expect(lines).toContain('VISITOR_COOKIE_SECRETS must be set when HOST_ORIGIN is');
    expect(lines).toContain('REMOTE_NEWS_PATHS is not set');
    expect(lines).toContain("REMOTE_NEWS_URL is not set: the news remote's mf-manifest.json URL");
  });

  it('never echoes a DATABASE_URL, which may hold a password', () => {
    expect(() => readServerConfig({ DATABASE_URL: 'mysql://user:hunter2@db/gifts' })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('hunter2') }),
    );
  });
});
