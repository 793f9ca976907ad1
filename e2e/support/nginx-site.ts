/**
 * The project's site for nginx in the tests: deploy/nginx's configuration, rendered by its own
 * `npm run nginx-config`, served by testbed's nginx (Debian's, with the brotli_static module),
 * and its access log read back: which upstream answered each request.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BROTLI_STATIC_MODULE, startNginx, type RunningNginx } from 'testbed/nginx';
import { LOG_DIR, ROOT_DIR } from './test-env';

export interface NginxSite {
  /** The GIFT_BOX_* values (deploy/nginx/render-config.ts). */
  env: Record<string, string>;
  /** A fresh folder for the configuration, logs and temporary files. */
  dir: string;
  /** nginx's own output; the worker's `logs/production-nginx.log` by default. */
  outputLog?: string;
}

// Which upstream answered each request, and each one tried: `$upstream_addr` lists them, and
// `$upstream_status` what each answered; when the request ended ($msec, seconds) and how long it took.
const ACCESS_LOG_FORMAT = '$request_method|$uri|$status|$upstream_addr|$msec|$request_time|$upstream_status';

export interface AccessLogLine {
  method: string;
  path: string;
  status: number;
  /** The upstream servers tried, in order (empty for a file served from disk). */
  upstreams: string[];
  /** What each upstream tried answered, in the same order (504 for one that timed out). */
  upstreamStatuses: number[];
  /** When nginx received the request and when it finished answering, in ms since the epoch. */
  startedAt: number;
  endedAt: number;
}

/**
 * The access log's lines `select` keeps, once there are `count` of them: nginx writes a request's
 * line after it has sent the answer, so a client that has just read its answer may look before
 * the line is there. What it has after `timeoutMs`, should they still be too few.
 */
export async function accessLogLines(
  nginx: RunningNginx,
  select: (line: AccessLogLine) => boolean,
  count: number,
  timeoutMs = 5_000,
): Promise<AccessLogLine[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const lines = readAccessLog(nginx).filter(select);
    if (lines.length >= count || Date.now() > deadline) return lines;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The access log so far, one entry per request. */
export function readAccessLog(nginx: RunningNginx): AccessLogLine[] {
  if (!existsSync(nginx.accessLog)) return [];
  return readFileSync(nginx.accessLog, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [method = '', path = '', status = '0', upstream = '-', msec = '0', took = '0', statuses = '-'] =
        line.split('|');
      // "a:1, b:2" when the request went on to a second server; " : " between internal redirects.
      const list = (value: string) => (value === '-' ? [] : value.split(/, | : /).filter((entry) => entry !== '-'));
      const endedAt = Math.round(Number(msec) * 1000);
      return {
        method,
        path,
        status: Number(status),
        upstreams: list(upstream),
        upstreamStatuses: list(statuses).map(Number),
        startedAt: endedAt - Math.round(Number(took) * 1000),
        endedAt,
      };
    });
}

/** `npm run nginx-config -- <file>` with the site's values: the operator's command. */
export function renderSiteConfig(site: NginxSite): string {
  const file = join(site.dir, 'gift-box.conf');
  const result = spawnSync('npm', ['run', '--silent', 'nginx-config', '--', file], {
    cwd: ROOT_DIR,
    // The site's access lines go to the http block's log, whose format the tests read back
    // (readAccessLog), unless a test names a log of its own.
    env: { ...process.env, GIFT_BOX_ACCESS_LOG: 'inherit', ...site.env },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`npm run nginx-config failed (${result.status}):\n${result.stderr}`);
  return file;
}

/** Renders the site and serves it; ready once `readyUrl` answers 200. nginx's output goes to the worker's logs. */
export function startSite(site: NginxSite, readyUrl: string): Promise<RunningNginx> {
  mkdirSync(site.dir, { recursive: true });
  return startNginx({
    dir: site.dir,
    http: [`include ${renderSiteConfig(site)};`],
    modules: [BROTLI_STATIC_MODULE],
    accessLogFormat: ACCESS_LOG_FORMAT,
    readyUrl,
    outputLog: site.outputLog ?? join(LOG_DIR, 'production-nginx.log'),
  });
}
