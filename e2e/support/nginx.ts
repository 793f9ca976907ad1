/**
 * Debian's nginx for the tests: the project's configuration (deploy/nginx, rendered by its own
 * `npm run nginx-config`) inside a minimal main configuration of our own, with every path
 * (pid, logs, temporary files) under a test folder, run in the foreground under
 * process-guard.cjs like the other servers.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { answersOk, delay } from './net';
import { startBundleCommand, type BundleProcess } from './production';
import { ROOT_DIR } from './test-env';

export const NGINX_PATH = process.env.E2E_NGINX_PATH || '/usr/sbin/nginx';
/** Debian's brotli_static module (package libnginx-mod-http-brotli-static). */
export const BROTLI_STATIC_MODULE = '/usr/lib/nginx/modules/ngx_http_brotli_static_module.so';
const MIME_TYPES = '/etc/nginx/mime.types';

export interface NginxSite {
  /** The GIFT_BOX_* values (deploy/nginx/render-config.ts). */
  env: Record<string, string>;
  /** A fresh folder for the configuration, logs and temporary files. */
  dir: string;
}

export interface RunningNginx extends BundleProcess {
  errorLog: string;
  accessLog: string;
}

export interface AccessLogLine {
  method: string;
  path: string;
  status: number;
  /** The upstream servers tried, in order (empty for a file served from disk). */
  upstreams: string[];
}

/** The access log so far, one entry per request. */
export function readAccessLog(nginx: RunningNginx): AccessLogLine[] {
  if (!existsSync(nginx.accessLog)) return [];
  return readFileSync(nginx.accessLog, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [method = '', path = '', status = '0', upstream = '-'] = line.split('|');
      // "a:1, b:2" when the request went on to a second server; " : " between internal redirects.
      const upstreams = upstream === '-' ? [] : upstream.split(/, | : /).filter((entry) => entry !== '-');
      return { method, path, status: Number(status), upstreams };
    });
}

/** `npm run nginx-config -- <file>` with the site's values: the operator's command. */
export function renderSiteConfig(site: NginxSite): string {
  const file = join(site.dir, 'gift-box.conf');
  const result = spawnSync('npm', ['run', '--silent', 'nginx-config', '--', file], {
    cwd: ROOT_DIR,
    env: { ...process.env, ...site.env },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`npm run nginx-config failed (${result.status}):\n${result.stderr}`);
  return file;
}

function mainConfig(site: NginxSite, siteFile: string): string {
  const temp = (name: string) => `${name}_temp_path ${join(site.dir, `${name}-temp`)};`;
  return [
    `load_module ${BROTLI_STATIC_MODULE};`,
    // As root, nginx's workers would run as nobody, who may not read the checkout.
    ...(process.getuid?.() === 0 ? ['user root;'] : []),
    'daemon off;',
    'worker_processes 1;',
    `pid ${join(site.dir, 'nginx.pid')};`,
    `error_log ${join(site.dir, 'error.log')} info;`,
    'events { worker_connections 512; }',
    'http {',
    `  include ${MIME_TYPES};`,
    '  default_type application/octet-stream;',
    // Which upstream answered each request, and each one tried: `$upstream_addr` lists them.
    "  log_format upstreams '$request_method|$uri|$status|$upstream_addr';",
    `  access_log ${join(site.dir, 'access.log')} upstreams;`,
    `  ${temp('client_body')}`,
    `  ${temp('proxy')}`,
    `  ${temp('fastcgi')}`,
    `  ${temp('uwsgi')}`,
    `  ${temp('scgi')}`,
    `  include ${siteFile};`,
    '}',
    '',
  ].join('\n');
}

/** Renders the site, checks it with `nginx -t`, starts nginx and waits until `readyUrl` answers 200. */
export async function startNginx(site: NginxSite, readyUrl: string): Promise<RunningNginx> {
  mkdirSync(site.dir, { recursive: true });
  const siteFile = renderSiteConfig(site);
  const configFile = join(site.dir, 'nginx.conf');
  writeFileSync(configFile, mainConfig(site, siteFile));
  const args = ['-p', site.dir, '-e', join(site.dir, 'error.log'), '-c', configFile];
  const check = spawnSync(NGINX_PATH, [...args, '-t'], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx -t refused the configuration:\n${check.stderr}`);
  const nginx = startBundleCommand('nginx', site.dir, NGINX_PATH, args);
  let exitCode: number | null | undefined;
  void nginx.exited.then((code) => (exitCode = code));
  const deadline = Date.now() + 20_000;
  while (!(await answersOk(readyUrl))) {
    if (exitCode !== undefined || Date.now() > deadline) {
      const log = existsSync(join(site.dir, 'error.log')) ? readFileSync(join(site.dir, 'error.log'), 'utf8') : '';
      throw new Error(`nginx did not serve ${readyUrl} (exit ${exitCode}):\n${log.slice(-3000)}`);
    }
    await delay(100);
  }
  return { ...nginx, errorLog: join(site.dir, 'error.log'), accessLog: join(site.dir, 'access.log') };
}
