/**
 * `npm run nginx-config [-- <output file>]`: deploy/nginx/gift-box.conf.template with the
 * operator's values, from GIFT_BOX_* environment variables (docs/operations.md). Every missing or
 * malformed value, missing folder and unusable certificate is named, one a line, and nothing is
 * written then.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { STRICT_TRANSPORT_SECURITY } from 'host/server/security-headers';
import { CONSOLE, runMain } from '../command-line';
import { defineConfigCommand } from '../emit-config';
import { gatewayLocations } from './error-pages';
import { certificateProblems, folderProblems } from './site-files';
import {
  ACCESS_LOG_FORMAT,
  INHERIT_ACCESS_LOG,
  listenPort,
  NO_HTTP,
  SiteValues,
  VARIABLES,
  type Env,
} from './site-values';

export const TEMPLATE_FILE = resolve(__dirname, 'gift-box.conf.template');

/** A configuration not to write: every problem, one a line, each naming its variable. */
export class NginxConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
    this.name = 'NginxConfigError';
  }
}

/**
 * How long nginx leaves out a process that refused a connection, reset it or timed out, before it
 * sends it one request again (the upstream's `fail_timeout`, with `max_fails=1`). Shorter brings
 * a restarted process back sooner (and makes a rolling restart's pause shorter); what it costs
 * is a request sent to a dead process once per fail_timeout, which a refused connection passes on
 * to the next process at once, and, for a process that is stalled but accepts connections, one
 * request per proxy_read_timeout (12 s) plus fail_timeout that waits 12 s (a read is then sent
 * on, a write answered 504): with 1 s, one such request every 13 s instead of every 22 s with 10 s.
 */
export const FAIL_TIMEOUT_SECONDS = 1;
export const FAIL_TIMEOUT = `${FAIL_TIMEOUT_SECONDS}s`;
/**
 * A rolling restart's pause between a restarted process answering its readiness and stopping the
 * next one: fail_timeout; a second nginx's clock (whole seconds) may round it up by; and a second
 * for the one request nginx then sends it to come back. Until that request has succeeded nginx
 * leaves the process out for every other request, so stopping the next one sooner leaves those
 * requests none to go to.
 */
export const RESTART_PAUSE_SECONDS = FAIL_TIMEOUT_SECONDS + 2;
/**
 * Strict-Transport-Security sent with the built files over HTTPS: the value the host's server
 * sends with pages (security-headers.ts), so a browser is told one thing whichever answered.
 */
export const HSTS = STRICT_TRANSPORT_SECURITY;

/** The upstream's `server` lines, one per process. */
function upstream(servers: readonly string[]): string {
  return servers.map((server) => `    server ${server} max_fails=1 fail_timeout=${FAIL_TIMEOUT};`).join('\n');
}

/** The TLS directives of the public server, and whether TLS is on. */
function tls(values: SiteValues, listen: string): { directives: string; on: boolean } {
  const certificate = values.read('GIFT_BOX_TLS_CERTIFICATE');
  const key = values.read('GIFT_BOX_TLS_CERTIFICATE_KEY');
  const ssl = listen.split(/\s+/).includes('ssl');
  if (!certificate && !key) {
    if (ssl) values.problem('GIFT_BOX_LISTEN has ssl: set GIFT_BOX_TLS_CERTIFICATE and GIFT_BOX_TLS_CERTIFICATE_KEY');
    return { directives: '', on: false };
  }
  if (!certificate || !key) {
    values.problem('GIFT_BOX_TLS_CERTIFICATE and GIFT_BOX_TLS_CERTIFICATE_KEY go together: set both');
    return { directives: '', on: false };
  }
  if (!ssl) values.problem(`GIFT_BOX_LISTEN must have ssl with a certificate (e.g. 443 ssl), got "${listen}"`);
  const directives = [
    `    ssl_certificate ${values.path('GIFT_BOX_TLS_CERTIFICATE')};`,
    `    ssl_certificate_key ${values.path('GIFT_BOX_TLS_CERTIFICATE_KEY')};`,
    '    ssl_protocols TLSv1.2 TLSv1.3;',
    `    add_header Strict-Transport-Security $gift_box_hsts always;`,
  ].join('\n');
  return { directives, on: true };
}

/**
 * With TLS, a plain-HTTP server (GIFT_BOX_HTTP_LISTEN) that sends every request to the same
 * host and path over HTTPS: 301, which every client follows (a form posted over plain HTTP is
 * none of ours: the pages are served over HTTPS only).
 */
function httpRedirect(values: SiteValues, listen: string, on: boolean, ports: string[]): string {
  const httpListen = values.plain('GIFT_BOX_HTTP_LISTEN');
  if (!on || !httpListen || httpListen === NO_HTTP) return '';
  const port = listenPort(httpListen);
  if (ports.includes(port)) {
    return values.problem(
      `GIFT_BOX_HTTP_LISTEN must differ from the ports of GIFT_BOX_LISTEN and GIFT_BOX_STATUS_PORT (${port})`,
    );
  }
  const httpsPort = listenPort(listen);
  const target = `https://$host${httpsPort === '443' ? '' : `:${httpsPort}`}$request_uri`;
  return [
    '# Plain HTTP: every request goes to the same host and path over HTTPS.',
    'server {',
    `    listen ${httpListen};`,
    `    server_name ${values.plain('GIFT_BOX_SERVER_NAME')};`,
    '    server_tokens off;',
    accessLog(values),
    '    location / {',
    `        return 301 ${target};`,
    '    }',
    '}',
  ]
    .filter(Boolean)
    .join('\n');
}

/**
 * The site's `access_log` line: its own file in the masked format, none (`off`), or nothing, so
 * that the `http` block's applies (`inherit`: its format should then use $gift_box_log_request
 * and $gift_box_log_referer, or ids are logged).
 */
function accessLog(values: SiteValues): string {
  const value = values.read('GIFT_BOX_ACCESS_LOG');
  if (value === INHERIT_ACCESS_LOG) return '';
  if (value === 'off') return '    access_log off;';
  return `    access_log ${values.path('GIFT_BOX_ACCESS_LOG')} ${ACCESS_LOG_FORMAT};`;
}

/** Every value the template names, and the problems found reading them. */
function siteValues(env: Env): { values: Record<string, string>; problems: readonly string[] } {
  const values = new SiteValues(env);
  const listen = values.plain('GIFT_BOX_LISTEN');
  const status = values.port('GIFT_BOX_STATUS_PORT');
  if (status && status === listenPort(listen)) {
    values.problem(`GIFT_BOX_STATUS_PORT must differ from the port of GIFT_BOX_LISTEN (${status})`);
  }
  const { directives, on } = tls(values, listen);
  return {
    values: {
      GIFT_BOX_API_UPSTREAM: upstream(values.servers('GIFT_BOX_API_SERVERS')),
      GIFT_BOX_HOST_UPSTREAM: upstream(values.servers('GIFT_BOX_HOST_SERVERS')),
      GIFT_BOX_FAIL_TIMEOUT: FAIL_TIMEOUT,
      GIFT_BOX_RESTART_PAUSE: `${RESTART_PAUSE_SECONDS} s`,
      GIFT_BOX_HOST_DIST: values.path('GIFT_BOX_HOST_DIST'),
      GIFT_BOX_REMOTES_DIR: values.path('GIFT_BOX_REMOTES_DIR'),
      GIFT_BOX_LISTEN: listen,
      GIFT_BOX_SERVER_NAME: values.plain('GIFT_BOX_SERVER_NAME'),
      GIFT_BOX_TLS: directives,
      GIFT_BOX_HTTP_REDIRECT: httpRedirect(values, listen, on, [listenPort(listen), status]),
      GIFT_BOX_HSTS: HSTS,
      GIFT_BOX_STATUS_PORT: status,
      GIFT_BOX_ACCESS_LOG: accessLog(values),
      GIFT_BOX_PAGE_RATE: values.rate('GIFT_BOX_PAGE_RATE'),
      GIFT_BOX_PAGE_BURST: values.count('GIFT_BOX_PAGE_BURST'),
      GIFT_BOX_GATEWAY_LOCATIONS: gatewayLocations(),
    },
    problems: values.problems,
  };
}

/** The configuration, for an nginx `http` block; the values only, not what they name on disk (checkSiteFiles). */
export function renderNginxConfig(env: Env, template = readFileSync(TEMPLATE_FILE, 'utf8')): string {
  const { values, problems } = siteValues(env);
  if (problems.length > 0) throw new NginxConfigError(problems);
  return template.replace(/\$\{(GIFT_BOX_[A-Z_]+)\}/g, (whole, name: string) => {
    const value = values[name];
    if (value === undefined) throw new NginxConfigError([`the template names an unknown value ${whole}`]);
    return value;
  });
}

/** What the values name on disk: the folders nginx serves, and the certificate with its key. */
export function checkSiteFiles(env: Env): string[] {
  const values = new SiteValues(env);
  const hostDist = values.path('GIFT_BOX_HOST_DIST');
  const remotesDir = values.path('GIFT_BOX_REMOTES_DIR');
  const certificate = values.read('GIFT_BOX_TLS_CERTIFICATE') && values.path('GIFT_BOX_TLS_CERTIFICATE');
  const key = values.read('GIFT_BOX_TLS_CERTIFICATE_KEY') && values.path('GIFT_BOX_TLS_CERTIFICATE_KEY');
  return [
    ...(hostDist && remotesDir ? folderProblems(hostDist, remotesDir) : []),
    ...(certificate && key ? certificateProblems(certificate, key) : []),
  ];
}

/** `renderNginxConfig`, and the files checked: every problem of both at once. */
export function buildNginxConfig(env: Env): string {
  let config = '';
  let problems: readonly string[] = [];
  try {
    config = renderNginxConfig(env);
  } catch (error) {
    if (!(error instanceof NginxConfigError)) throw error;
    problems = error.problems;
  }
  const all = [...problems, ...checkSiteFiles(env)];
  if (all.length > 0) throw new NginxConfigError(all);
  return config;
}

const HELP = `Usage: npm run nginx-config [-- <output file>]

Writes nginx's site file for Gift Box (to standard output without a file). Every bad variable,
missing folder or unusable certificate is named, one a line, and nothing is written.

The upstreams' trade-off: a process that refuses a connection, resets it or times out is left
out of the rotation for fail_timeout=${FAIL_TIMEOUT} (max_fails=1), then sent one request again.
Shorter brings a restarted process back sooner; longer sends a dead or stalled process fewer
requests (a stalled one costs one request per 12 s + fail_timeout that waits 12 s). So in a
rolling restart, once a restarted process answers its readiness, wait ${RESTART_PAUSE_SECONDS} s (fail_timeout,
a second of nginx's clock and a second for nginx's first request to it) before stopping the
next one.

Reads:`;

function usage(): string {
  const lines = Object.entries(VARIABLES).map(
    ([name, { default: fallback, means }]) =>
      `  ${name.padEnd(30)} ${means}${fallback === undefined ? ' (required)' : fallback ? ` (default ${fallback})` : ''}`,
  );
  return `${HELP}\n${lines.join('\n')}`;
}

export const nginxConfigCommand = defineConfigCommand({
  name: 'nginx-config',
  summary: "write nginx's site file",
  usage: usage(),
  next: 'check it with nginx -t, then reload nginx',
  render: () => buildNginxConfig(process.env),
  problemsOf: (error) => (error instanceof NginxConfigError ? error.problems : undefined),
});

if (require.main === module) runMain(nginxConfigCommand, CONSOLE);
