/**
 * `npm run nginx-config [-- <output file>]`: deploy/nginx/gift-box.conf.template with the
 * operator's values, from GIFT_BOX_* environment variables (README: "Running in production"). A missing
 * or malformed value stops it with a message naming the variable; nothing is written then.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { STRICT_TRANSPORT_SECURITY } from 'host/server/security-headers';
import { emitConfig } from '../emit-config';

export const TEMPLATE_FILE = resolve(__dirname, 'gift-box.conf.template');

type Env = Record<string, string | undefined>;

/** A failure to stop for, naming the variable. */
export class NginxConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NginxConfigError';
  }
}

/** How long nginx leaves out a process that refused a connection before trying it again. */
export const FAIL_TIMEOUT_SECONDS = 2;
export const FAIL_TIMEOUT = `${FAIL_TIMEOUT_SECONDS}s`;
/**
 * A rolling restart's pause between a restarted process answering its readiness and stopping the
 * next one: fail_timeout, plus the second nginx's clock (whole seconds) may round it up by.
 */
export const RESTART_PAUSE_SECONDS = FAIL_TIMEOUT_SECONDS + 1;
/**
 * Strict-Transport-Security sent with the built files over HTTPS: the value the host's server
 * sends with pages (security-headers.ts), so a browser is told one thing whichever answered.
 */
export const HSTS = STRICT_TRANSPORT_SECURITY;

/** The access log's format, defined by the template: the request line and the Referer masked. */
export const ACCESS_LOG_FORMAT = 'gift_box';
/** GIFT_BOX_ACCESS_LOG's value for no `access_log` of the site's own: the `http` block's applies. */
export const INHERIT_ACCESS_LOG = 'inherit';

/**
 * Page requests a client address may make (`limit_req`): a visitor's page load asks the host's
 * server for one page and a few small answers (`/config.json`, `/remote-builds.json`), so 20 a
 * second with 200 at once is far above what one person, or a school or office behind one address,
 * asks; what one address can make the host's server spend stays bounded.
 */
export const PAGE_RATE = '20r/s';
export const PAGE_BURST = '200';

/** The variables, their defaults (undefined: required) and what they mean, for errors and the README. */
export const VARIABLES = {
  GIFT_BOX_API_SERVERS: { default: undefined, means: 'the API processes, host:port, comma-separated' },
  GIFT_BOX_HOST_SERVERS: { default: '127.0.0.1:3000', means: "the host's servers, host:port, comma-separated" },
  GIFT_BOX_HOST_DIST: { default: undefined, means: "the host's built folder (host/dist), an absolute path" },
  GIFT_BOX_REMOTES_DIR: {
    default: undefined,
    means: 'the folder holding one deployed folder per remote (gifts, redeem, content), an absolute path',
  },
  GIFT_BOX_LISTEN: { default: '80', means: "nginx's listen parameters, e.g. 443 ssl" },
  GIFT_BOX_SERVER_NAME: { default: '_', means: 'the site name(s), e.g. gifts.example.com' },
  GIFT_BOX_TLS_CERTIFICATE: { default: '', means: 'with its key: the certificate file; HTTPS and HSTS on' },
  GIFT_BOX_TLS_CERTIFICATE_KEY: { default: '', means: "the certificate's key file" },
  GIFT_BOX_STATUS_PORT: {
    default: '8080',
    means: "the loopback port of nginx's stub_status, for prometheus-nginx-exporter",
  },
  GIFT_BOX_PAGE_RATE: {
    default: PAGE_RATE,
    means: "the page requests (the host's server's) one client address may make, a second (r/s) or a minute (r/m)",
  },
  GIFT_BOX_PAGE_BURST: {
    default: PAGE_BURST,
    means: 'the page requests one client address may make at once beyond GIFT_BOX_PAGE_RATE, before a 429',
  },
  GIFT_BOX_ACCESS_LOG: {
    default: '/var/log/nginx/gift-box.access.log',
    means: `the access log, ids masked (an absolute path); off: none; ${INHERIT_ACCESS_LOG}: the http block's`,
  },
} as const;

type Variable = keyof typeof VARIABLES;

/** Characters that would end or extend an nginx directive. */
const UNSAFE = /[\s;{}'"\\$#]/;
const SERVER_ADDRESS = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/;

function read(env: Env, name: Variable): string {
  const value = env[name]?.trim();
  if (value) return value;
  const fallback = VARIABLES[name].default;
  if (fallback === undefined) throw new NginxConfigError(`${name} is not set: ${VARIABLES[name].means}`);
  return fallback;
}

function path(env: Env, name: Variable): string {
  const value = read(env, name);
  if (!isAbsolute(value) || UNSAFE.test(value)) {
    throw new NginxConfigError(`${name} must be an absolute path without spaces or quotes, got "${value}"`);
  }
  return value.replace(/\/+$/, '') || '/';
}

function servers(env: Env, name: Variable): string[] {
  const list = read(env, name)
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const bad = list.filter((entry) => !SERVER_ADDRESS.test(entry) || Number(entry.split(':').pop()) > 65535);
  if (list.length === 0 || bad.length > 0) {
    throw new NginxConfigError(
      `${name} must be host:port addresses, comma-separated (e.g. 10.0.0.5:3004,10.0.0.6:3004)` +
        (bad.length ? `; not valid: ${bad.map((entry) => `"${entry}"`).join(', ')}` : ''),
    );
  }
  return list;
}

function portNumber(env: Env, name: Variable): string {
  const value = read(env, name);
  if (!/^\d{1,5}$/.test(value) || Number(value) < 1 || Number(value) > 65535) {
    throw new NginxConfigError(`${name} must be a port number between 1 and 65535, got "${value}"`);
  }
  return String(Number(value));
}

/** The port of nginx's `listen` parameters (`443 ssl`, `127.0.0.1:8081`, `[::]:80`). */
function listenPort(listen: string): string {
  const address = listen.split(/\s+/)[0] ?? '';
  return /^\d+$/.test(address) ? address : (/:(\d+)$/.exec(address)?.[1] ?? '80');
}

/** The status server's port, which must not be the public one: visitors never reach stub_status. */
function statusPort(env: Env, listen: string): string {
  const port = portNumber(env, 'GIFT_BOX_STATUS_PORT');
  if (port === listenPort(listen)) {
    throw new NginxConfigError(`GIFT_BOX_STATUS_PORT must differ from the port of GIFT_BOX_LISTEN (${port})`);
  }
  return port;
}

/** A `limit_req_zone` rate: requests a second or a minute. */
function rate(env: Env): string {
  const value = read(env, 'GIFT_BOX_PAGE_RATE');
  const match = /^(\d{1,6})r\/([sm])$/.exec(value);
  if (!match || Number(match[1]) < 1) {
    throw new NginxConfigError(
      `GIFT_BOX_PAGE_RATE must be requests a second or a minute, e.g. 20r/s or 30r/m, got "${value}"`,
    );
  }
  return `${Number(match[1])}r/${match[2]}`;
}

function burst(env: Env): string {
  const value = read(env, 'GIFT_BOX_PAGE_BURST');
  if (!/^\d{1,6}$/.test(value)) {
    throw new NginxConfigError(`GIFT_BOX_PAGE_BURST must be a whole number of requests, got "${value}"`);
  }
  return String(Number(value));
}

function plain(env: Env, name: Variable): string {
  const value = read(env, name);
  if (/[;{}'"\\$#\n]/.test(value)) throw new NginxConfigError(`${name} must not contain ; { } quotes $ or #`);
  return value;
}

function tls(env: Env): string {
  const certificate = env.GIFT_BOX_TLS_CERTIFICATE?.trim();
  const key = env.GIFT_BOX_TLS_CERTIFICATE_KEY?.trim();
  if (!certificate && !key) return '';
  if (!certificate || !key) {
    throw new NginxConfigError('GIFT_BOX_TLS_CERTIFICATE and GIFT_BOX_TLS_CERTIFICATE_KEY go together: set both');
  }
  return [
    `    ssl_certificate ${path(env, 'GIFT_BOX_TLS_CERTIFICATE')};`,
    `    ssl_certificate_key ${path(env, 'GIFT_BOX_TLS_CERTIFICATE_KEY')};`,
    '    ssl_protocols TLSv1.2 TLSv1.3;',
    `    add_header Strict-Transport-Security $gift_box_hsts always;`,
  ].join('\n');
}

/**
 * The site's `access_log` line: its own file in the masked format, none (`off`), or nothing, so
 * that the `http` block's applies (`inherit`: its format should then use $gift_box_log_request
 * and $gift_box_log_referer, or ids are logged).
 */
function accessLog(env: Env): string {
  const value = read(env, 'GIFT_BOX_ACCESS_LOG');
  if (value === INHERIT_ACCESS_LOG) return '';
  if (value === 'off') return '    access_log off;';
  return `    access_log ${path(env, 'GIFT_BOX_ACCESS_LOG')} ${ACCESS_LOG_FORMAT};`;
}

/** The configuration, for an nginx `http` block. */
export function renderNginxConfig(env: Env, template = readFileSync(TEMPLATE_FILE, 'utf8')): string {
  const listen = plain(env, 'GIFT_BOX_LISTEN');
  const values: Record<string, string> = {
    GIFT_BOX_API_UPSTREAM: servers(env, 'GIFT_BOX_API_SERVERS')
      .map((server) => `    server ${server} max_fails=1 fail_timeout=${FAIL_TIMEOUT};`)
      .join('\n'),
    GIFT_BOX_HOST_UPSTREAM: servers(env, 'GIFT_BOX_HOST_SERVERS')
      .map((server) => `    server ${server} max_fails=1 fail_timeout=${FAIL_TIMEOUT};`)
      .join('\n'),
    GIFT_BOX_HOST_DIST: path(env, 'GIFT_BOX_HOST_DIST'),
    GIFT_BOX_REMOTES_DIR: path(env, 'GIFT_BOX_REMOTES_DIR'),
    GIFT_BOX_LISTEN: listen,
    GIFT_BOX_SERVER_NAME: plain(env, 'GIFT_BOX_SERVER_NAME'),
    GIFT_BOX_TLS: tls(env),
    GIFT_BOX_HSTS: HSTS,
    GIFT_BOX_STATUS_PORT: statusPort(env, listen),
    GIFT_BOX_ACCESS_LOG: accessLog(env),
    GIFT_BOX_PAGE_RATE: rate(env),
    GIFT_BOX_PAGE_BURST: burst(env),
  };
  const rendered = template.replace(/\$\{(GIFT_BOX_[A-Z_]+)\}/g, (whole, name: string) => {
    const value = values[name];
    if (value === undefined) throw new NginxConfigError(`the template names an unknown value ${whole}`);
    return value;
  });
  return rendered;
}

function main(argv: readonly string[]): number {
  if (argv.length > 1 || argv[0] === '-h' || argv[0] === '--help') {
    const lines = Object.entries(VARIABLES).map(
      ([name, { default: fallback, means }]) =>
        `  ${name.padEnd(30)} ${means}${fallback === undefined ? ' (required)' : fallback ? ` (default ${fallback})` : ''}`,
    );
    console.log(`Usage: npm run nginx-config [-- <output file>]\n\nReads:\n${lines.join('\n')}`);
    return argv.length > 1 ? 1 : 0;
  }
  let config: string;
  try {
    config = renderNginxConfig(process.env);
  } catch (error) {
    if (!(error instanceof NginxConfigError)) throw error;
    console.error(`nginx-config: ${error.message}`);
    return 1;
  }
  return emitConfig('nginx-config', config, argv[0], 'check it with nginx -t, then reload nginx');
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));
