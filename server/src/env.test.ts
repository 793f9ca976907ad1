/** @jest-environment node */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_PORTS } from 'shared/ports';
import {
  EnvError,
  type Env,
  envSchema,
  intBetween,
  list,
  matching,
  numberBetween,
  parseEnv,
  positiveInt,
  readInt,
  readPort,
  secretList,
  staticPartEnv,
  url,
} from './env';

/** A remote's server's environment (`staticPartEnv`), serving `root` by default. */
const remoteEnv = (env: Env, root = '/app/dist') => parseEnv(staticPartEnv('gifts', root), env);
const readHostOrigin = (env: Env) => remoteEnv(env).hostOrigin;
const readStaticRoot = (root: string, env: Env) => remoteEnv(env, root).root;
const readListenHost = (env: Env) => remoteEnv(env).listenHost;
const readShutdownDelay = (env: Env) => remoteEnv(env).shutdownDelayMs;

/** The EnvError that `read` throws; fails the test when nothing is thrown. */
function envErrorFrom(read: () => unknown): EnvError {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return error as EnvError;
  }
  throw new Error('expected an EnvError');
}

describe('readPort', () => {
  it.each([
    ['host', 3000],
    ['gifts', 3001],
    ['redeem', 3002],
    ['content', 3003],
    ['api', 3004],
  ] as const)('defaults the %s port to %i', (part, port) => {
    expect(readPort(part, {})).toBe(port);
  });

  it('treats an empty variable as unset', () => {
    expect(readPort('host', { HOST_PORT: '' })).toBe(3000);
  });

  it('reads each part from its own variable', () => {
    const env = { HOST_PORT: '8080', REMOTE_GIFTS_PORT: '8081', API_PORT: '9000' };
    expect(readPort('host', env)).toBe(8080);
    expect(readPort('gifts', env)).toBe(8081);
    expect(readPort('api', env)).toBe(9000);
    expect(readPort('redeem', env)).toBe(DEFAULT_PORTS.redeem.port);
  });

  it('accepts the bounds 1 and 65535', () => {
    expect(readPort('host', { HOST_PORT: '1' })).toBe(1);
    expect(readPort('host', { HOST_PORT: '65535' })).toBe(65535);
  });

  it.each(['0', '70000', '65536', '-1', 'abc', '3000x', '30.5'])(
    'rejects %p, naming the variable and the value',
    (raw) => {
      const error = envErrorFrom(() => readPort('host', { HOST_PORT: raw }));
      expect(error.name).toBe('EnvError');
      expect(error.message).toContain('HOST_PORT');
      expect(error.message).toContain(`"${raw}"`);
    },
  );

  it('names the variable of the part being read', () => {
    expect(envErrorFrom(() => readPort('content', { REMOTE_CONTENT_PORT: 'x' })).message).toContain(
      'REMOTE_CONTENT_PORT',
    );
  });

  it('reads process.env when no environment is given', () => {
    const saved = process.env.API_PORT;
    process.env.API_PORT = '4321';
    try {
      expect(readPort('api')).toBe(4321);
    } finally {
      if (saved === undefined) delete process.env.API_PORT;
      else process.env.API_PORT = saved;
    }
  });
});

describe('readInt', () => {
  it('falls back when the variable is unset or empty', () => {
    expect(readInt('RETRIES', 7, {})).toBe(7);
    expect(readInt('RETRIES', 7, { RETRIES: '' })).toBe(7);
  });

  it('reads a positive whole number', () => {
    expect(readInt('RETRIES', 7, { RETRIES: '12' })).toBe(12);
    expect(readInt('RETRIES', 7, { RETRIES: '1' })).toBe(1);
  });

  it.each(['0', '-3', '2.5', 'ten', '10ms'])('rejects %p, naming the variable', (raw) => {
    const error = envErrorFrom(() => readInt('RETRIES', 7, { RETRIES: raw }));
    expect(error.message).toContain('RETRIES');
    expect(error.message).toContain(`"${raw}"`);
  });
});

describe('readHostOrigin', () => {
  it('defaults to the host port on any hostname: localhost, 127.0.0.1, a LAN address', () => {
    for (const env of [{}, { HOST_ORIGIN: '' }]) {
      const allowed = readHostOrigin(env);
      expect(allowed).toBeInstanceOf(RegExp);
      for (const origin of [
        'http://localhost:3000',
        'http://127.0.0.1:3000',
        'http://192.168.1.20:3000',
        'http://[::1]:3000',
      ]) {
        expect(origin).toMatch(allowed);
      }
      for (const origin of ['http://localhost:3001', 'https://localhost:3000', 'http://localhost:30000', 'null']) {
        expect(origin).not.toMatch(allowed);
      }
    }
  });

  it('follows HOST_PORT when HOST_ORIGIN is unset', () => {
    const allowed = readHostOrigin({ HOST_PORT: '4000' });
    expect('http://127.0.0.2:4000').toMatch(allowed);
    expect('http://127.0.0.2:3000').not.toMatch(allowed);
  });

  it('reports a bad HOST_PORT when it has to use it', () => {
    expect(envErrorFrom(() => readHostOrigin({ HOST_PORT: 'nope' })).message).toContain('HOST_PORT');
  });

  it('prefers HOST_ORIGIN over HOST_PORT', () => {
    expect(readHostOrigin({ HOST_ORIGIN: 'https://gifts.example.com', HOST_PORT: 'nope' })).toBe(
      'https://gifts.example.com',
    );
  });

  it('trims a path, query and trailing slash down to the origin', () => {
    expect(readHostOrigin({ HOST_ORIGIN: 'https://gifts.example.com/app/index.html?x=1#top' })).toBe(
      'https://gifts.example.com',
    );
    expect(readHostOrigin({ HOST_ORIGIN: 'http://localhost:8080/' })).toBe('http://localhost:8080');
  });

  it('drops a default port, as browsers do in the Origin header', () => {
    expect(readHostOrigin({ HOST_ORIGIN: 'https://gifts.example.com:443' })).toBe('https://gifts.example.com');
  });

  it.each(['garbage', '//gifts.example.com', 'http://'])('rejects %p, naming HOST_ORIGIN', (raw) => {
    const error = envErrorFrom(() => readHostOrigin({ HOST_ORIGIN: raw }));
    expect(error.message).toContain('HOST_ORIGIN');
    expect(error.message).toContain(`"${raw}"`);
  });

  // These parse as URLs whose origin is the string "null"; a remote would then grant CORS to
  // `Origin: null`, which sandboxed iframes and file:// pages send.
  it.each(['localhost:3000', 'file:///srv/host/index.html', 'data:text/html,hi'])(
    'rejects %p, which has no http(s) origin, naming HOST_ORIGIN',
    (raw) => {
      const error = envErrorFrom(() => readHostOrigin({ HOST_ORIGIN: raw }));
      expect(error.message).toContain('HOST_ORIGIN');
    },
  );
});

describe('readStaticRoot', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'static-root-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('defaults to the given folder when STATIC_ROOT is unset or empty', () => {
    expect(readStaticRoot('/app/dist', {})).toBe('/app/dist');
    expect(readStaticRoot('/app/dist', { STATIC_ROOT: '' })).toBe('/app/dist');
  });

  it('serves an existing absolute folder instead', () => {
    expect(readStaticRoot('/app/dist', { STATIC_ROOT: dir })).toBe(dir);
  });

  it.each([
    ['a relative path', () => 'deploy/content', 'absolute path'],
    ['a missing folder', () => join(dir, 'missing'), 'existing folder'],
    ['a file', () => join(dir, 'file.txt'), 'existing folder'],
  ])('refuses %s, naming the variable', (_case, path, message) => {
    writeFileSync(join(dir, 'file.txt'), 'x');
    const error = envErrorFrom(() => readStaticRoot('/app/dist', { STATIC_ROOT: path() }));
    expect(error.message).toContain('STATIC_ROOT');
    expect(error.message).toContain(message);
  });
});

describe('readListenHost', () => {
  it('is undefined (every interface) when LISTEN_HOST is unset or blank', () => {
    expect(readListenHost({})).toBeUndefined();
    expect(readListenHost({ LISTEN_HOST: ' ' })).toBeUndefined();
  });

  it('gives the address to listen on', () => {
    expect(readListenHost({ LISTEN_HOST: '127.0.0.1' })).toBe('127.0.0.1');
    expect(readListenHost({ LISTEN_HOST: '::1' })).toBe('::1');
  });
});

describe('readShutdownDelay', () => {
  it('is 0 when SHUTDOWN_DELAY_MS is unset or empty', () => {
    expect(readShutdownDelay({})).toBe(0);
    expect(readShutdownDelay({ SHUTDOWN_DELAY_MS: '' })).toBe(0);
  });

  it.each([
    ['0', 0],
    ['10000', 10_000],
    ['120000', 120_000],
  ])('reads %s as %i ms', (raw, expected) => {
    expect(readShutdownDelay({ SHUTDOWN_DELAY_MS: raw })).toBe(expected);
  });

  it.each(['-5', '1.5', '120001', '10s'])('refuses %p, naming the variable', (raw) => {
    expect(() => readShutdownDelay({ SHUTDOWN_DELAY_MS: raw })).toThrow(
      new EnvError(`SHUTDOWN_DELAY_MS must be a whole number of milliseconds from 0 to 120000, got "${raw}"`),
    );
  });
});

describe("a server's environment, read through one schema", () => {
  it('reports every bad variable together, a line each, in the order the schema lists them', () => {
    const error = envErrorFrom(() =>
      remoteEnv({
        REMOTE_GIFTS_PORT: 'x',
        STATIC_ROOT: 'relative',
        SHUTDOWN_DELAY_MS: '10s',
        LISTEN_HOST: '::1',
        LOG_LEVEL: 'loud',
      }),
    );
    expect(error.message.split('\n')).toEqual([
      'REMOTE_GIFTS_PORT must be a port number between 1 and 65535, got "x"',
      'STATIC_ROOT must be an absolute path, got "relative"',
      'SHUTDOWN_DELAY_MS must be a whole number of milliseconds from 0 to 120000, got "10s"',
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"',
    ]);
  });

  it("gives a remote's server everything it is told, each from its own variable", () => {
    expect(
      remoteEnv({
        REMOTE_GIFTS_PORT: '8081',
        HOST_PORT: '8080',
        LISTEN_HOST: '127.0.0.1',
        SHUTDOWN_DELAY_MS: '500',
        METRICS_PORT: '9301',
        METRICS_HOST: '10.0.0.7',
        LOG_LEVEL: 'warn',
      }),
    ).toEqual({
      part: 'gifts',
      port: 8081,
      root: '/app/dist',
      hostOrigin: expect.any(RegExp),
      listenHost: '127.0.0.1',
      shutdownDelayMs: 500,
      metricsPort: 9301,
      metricsHost: '10.0.0.7',
      logLevel: 'warn',
    });
    expect(parseEnv(staticPartEnv('content', '/srv'), {}).port).toBe(DEFAULT_PORTS.content.port);
  });

  it('serves a remote the list of ports does not hold on the port of its own spec, moved by its own variable', () => {
    const news = { name: 'news', port: 3005, portEnv: 'REMOTE_NEWS_PORT' };
    expect(parseEnv(staticPartEnv(news, '/srv'), {})).toMatchObject({ part: 'news', port: 3005 });
    expect(parseEnv(staticPartEnv(news, '/srv'), { REMOTE_NEWS_PORT: '7001' }).port).toBe(7001);
    expect(readPort(news, { REMOTE_NEWS_PORT: '7002' })).toBe(7002);
    expect(envErrorFrom(() => readPort(news, { REMOTE_NEWS_PORT: 'x' })).message).toContain('REMOTE_NEWS_PORT');
  });

  it("gives a remote's server no metrics listener unless METRICS_PORT names one, on loopback by default", () => {
    expect(remoteEnv({})).toMatchObject({ metricsPort: undefined, metricsHost: '127.0.0.1' });
    expect(remoteEnv({ METRICS_PORT: '', METRICS_HOST: ' ' })).toMatchObject({
      metricsPort: undefined,
      metricsHost: '127.0.0.1',
    });
    expect(remoteEnv({ METRICS_PORT: '9301' })).toMatchObject({ metricsPort: 9301, metricsHost: '127.0.0.1' });
    for (const bad of ['0', 'x', '70000'])
      expect(envErrorFrom(() => remoteEnv({ METRICS_PORT: bad })).message).toBe(
        `METRICS_PORT must be a port number between 1 and 65535, got "${bad}"`,
      );
  });

  it('leaves variables outside the schema alone', () => {
    expect(parseEnv(envSchema({ PLAYS: positiveInt(5) }), { PLAYS: '7', PATH: '/usr/bin', OTHER: 'x' })).toEqual({
      PLAYS: 7,
    });
  });

  it('reads a whole number within its bounds, its default when unset, and names the variable otherwise', () => {
    const schema = envSchema({ RENDER_WORKERS: intBetween(2, 1, 16) });
    expect(parseEnv(schema, {})).toEqual({ RENDER_WORKERS: 2 });
    expect(parseEnv(schema, { RENDER_WORKERS: '4' })).toEqual({ RENDER_WORKERS: 4 });
    for (const bad of ['0', '17', '1.5', 'two'])
      expect(() => parseEnv(schema, { RENDER_WORKERS: bad })).toThrow(
        `RENDER_WORKERS must be a whole number from 1 to 16, got "${bad}"`,
      );
  });
});

describe('secretList', () => {
  const schema = envSchema({ PAGE_TICKET_SECRETS: secretList(32) });
  const read = (raw: string | undefined) => parseEnv(schema, { PAGE_TICKET_SECRETS: raw }).PAGE_TICKET_SECRETS;

  it('reads comma-separated secrets, newest first, and none when unset or blank', () => {
    expect(read(undefined)).toBeUndefined();
    expect(read(' ')).toBeUndefined();
    expect(read(`${'a'.repeat(32)}, ${'b'.repeat(40)}`)).toEqual(['a'.repeat(32), 'b'.repeat(40)]);
  });

  it('refuses a short secret, naming the variable and which one, never the secret', () => {
    const error = envErrorFrom(() => read(`${'a'.repeat(32)},short-secret`));
    expect(error.message).toBe(
      "PAGE_TICKET_SECRETS's secret 2 must be at least 32 characters (it has 12): make one with openssl rand -base64 32",
    );
  });
});

describe('the typed readers every configuration shares', () => {
  const read = <T>(reader: (raw: string | undefined, name: string) => T, raw: string | undefined) =>
    parseEnv(envSchema({ SETTING: reader }), { SETTING: raw }).SETTING;
  const refused = (reader: (raw: string | undefined, name: string) => unknown, raw: string) => {
    try {
      read(reader, raw);
    } catch (error) {
      expect(error).toBeInstanceOf(EnvError);
      return (error as Error).message;
    }
    throw new Error(`"${raw}" was accepted`);
  };

  it('reads a decimal number in range, its fallback when unset, and refuses others in the one wording', () => {
    expect(read(numberBetween(0.3, 0, 1), undefined)).toBe(0.3);
    expect(read(numberBetween(0.3, 0, 1), '.5')).toBe(0.5);
    expect(refused(numberBetween(0.3, 0, 1), '1.5')).toBe('SETTING must be a number from 0 to 1, got "1.5"');
    expect(refused(numberBetween(0.3, 0, 1), '-0')).toBe('SETTING must be a number from 0 to 1, got "-0"');
  });

  it('reads a list of trimmed entries, none when unset, each through its item reader', () => {
    const upper = list((entry) => entry.toUpperCase());
    expect(read(upper, undefined)).toEqual([]);
    expect(read(upper, ' a, b ,,c ')).toEqual(['A', 'B', 'C']);
  });

  it('reads a URL of the schemes given and refuses another, leaving a secret one out of the message', () => {
    const http = url({ protocols: ['http:', 'https:'], expected: 'an http(s) URL' });
    expect(read(http, 'https://example.com')).toBe('https://example.com/');
    expect(refused(http, 'ftp://example.com')).toBe('SETTING must be an http(s) URL, got "ftp://example.com"');
    const database = url({ protocols: ['postgres:'], expected: 'a PostgreSQL URL', secret: true });
    expect(read(database, 'postgres://u:pw@db/x')).toBe('postgres://u:pw@db/x');
    expect(refused(database, 'mysql://u:pw@db/x')).toBe('SETTING must be a PostgreSQL URL');
  });

  it('reads a value its pattern accepts, trimmed', () => {
    const duration = matching('15s', /^\d+s$/, 'a duration such as 15s');
    expect(read(duration, undefined)).toBe('15s');
    expect(read(duration, ' 30s ')).toBe('30s');
    expect(refused(duration, '30')).toBe('SETTING must be a duration such as 15s, got "30"');
  });
});
