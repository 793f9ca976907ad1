/** The GIFT_BOX_* variables `npm run nginx-config` reads; every bad one is named in one run. */
import { isAbsolute } from 'node:path';

export type Env = Record<string, string | undefined>;

export const ACCESS_LOG_FORMAT = 'gift_box';
export const INHERIT_ACCESS_LOG = 'inherit';
export const NO_HTTP = 'off';

/**
 * A page load asks the host's server for one page and a few small answers: 20 a second, 200 at
 * once is far above one office behind one address, and bounds what an address can make it spend.
 */
export const PAGE_RATE = '20r/s';
export const PAGE_BURST = '200';

export const VARIABLES = {
  GIFT_BOX_API_SERVERS: { default: undefined, means: 'the API processes, host:port, comma-separated' },
  GIFT_BOX_HOST_SERVERS: { default: '127.0.0.1:3000', means: "the host's servers, host:port, comma-separated" },
  GIFT_BOX_HOST_DIST: {
    default: undefined,
    means: "the host's deploy folder (npm run deploy -w host), an absolute path",
  },
  GIFT_BOX_REMOTES_DIR: {
    default: undefined,
    means: 'the folder holding one deployed folder per remote (gifts, redeem, content), an absolute path',
  },
  GIFT_BOX_LISTEN: { default: '80', means: "nginx's listen parameters, e.g. 443 ssl" },
  GIFT_BOX_HTTP_LISTEN: {
    default: '80',
    means: `with TLS: the listen parameters of a plain-HTTP server that redirects to HTTPS; ${NO_HTTP}: none`,
  },
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

export type Variable = keyof typeof VARIABLES;

const UNSAFE = /[\s;{}'"\\$#]/;
const SERVER_ADDRESS = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/;

export function listenPort(listen: string): string {
  const address = listen.split(/\s+/)[0] ?? '';
  return /^\d+$/.test(address) ? address : (/:(\d+)$/.exec(address)?.[1] ?? '80');
}

export class SiteValues {
  readonly problems: string[] = [];

  constructor(private readonly env: Env) {}

  problem(message: string): '' {
    this.problems.push(message);
    return '';
  }

  read(name: Variable): string {
    const value = this.env[name]?.trim();
    if (value) return value;
    const fallback = VARIABLES[name].default;
    return fallback ?? this.problem(`${name} is not set: ${VARIABLES[name].means}`);
  }

  path(name: Variable): string {
    const value = this.read(name);
    if (!value) return '';
    if (!isAbsolute(value) || UNSAFE.test(value)) {
      return this.problem(`${name} must be an absolute path without spaces or quotes, got "${value}"`);
    }
    return value.replace(/\/+$/, '') || '/';
  }

  servers(name: Variable): string[] {
    const value = this.read(name);
    if (!value) return [];
    const list = value
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    const bad = list.filter((entry) => !SERVER_ADDRESS.test(entry) || Number(entry.split(':').pop()) > 65535);
    if (list.length > 0 && bad.length === 0) return list;
    this.problem(
      `${name} must be host:port addresses, comma-separated (e.g. 10.0.0.5:3004,10.0.0.6:3004)` +
        (bad.length ? `; not valid: ${bad.map((entry) => `"${entry}"`).join(', ')}` : ''),
    );
    return [];
  }

  port(name: Variable): string {
    const value = this.read(name);
    if (!/^\d{1,5}$/.test(value) || Number(value) < 1 || Number(value) > 65535) {
      return this.problem(`${name} must be a port number between 1 and 65535, got "${value}"`);
    }
    return String(Number(value));
  }

  plain(name: Variable): string {
    const value = this.read(name);
    if (/[;{}'"\\$#\n]/.test(value)) return this.problem(`${name} must not contain ; { } quotes $ or #`);
    return value;
  }

  rate(name: Variable): string {
    const value = this.read(name);
    const match = /^(\d{1,6})r\/([sm])$/.exec(value);
    if (!match || Number(match[1]) < 1) {
      return this.problem(`${name} must be requests a second or a minute, e.g. 20r/s or 30r/m, got "${value}"`);
    }
    return `${Number(match[1])}r/${match[2]}`;
  }

  count(name: Variable): string {
    const value = this.read(name);
    if (!/^\d{1,6}$/.test(value)) return this.problem(`${name} must be a whole number of requests, got "${value}"`);
    return String(Number(value));
  }
}
