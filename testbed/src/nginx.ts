/**
 * Debian's nginx for tests and benches: the caller's `http` directives in a minimal main
 * configuration with every path under one folder, checked with `nginx -t`, run under the guard.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, type RunningProcess } from './process';

export const NGINX_PATH = process.env.E2E_NGINX_PATH || '/usr/sbin/nginx';
export const BROTLI_STATIC_MODULE = '/usr/lib/nginx/modules/ngx_http_brotli_static_module.so';
const MIME_TYPES = '/etc/nginx/mime.types';
const READY_TIMEOUT_MS = 20_000;

export interface NginxOptions {
  dir: string;
  http: readonly string[];
  modules?: readonly string[];
  accessLogFormat?: string;
  readyUrl: string;
  outputLog?: string;
}

export interface RunningNginx extends RunningProcess {
  errorLog: string;
  accessLog: string;
}

export function nginxConfig(options: NginxOptions): string {
  const { dir } = options;
  const temp = (name: string) => `${name}_temp_path ${join(dir, `${name}-temp`)};`;
  const format = options.accessLogFormat === undefined ? '' : ' custom';
  return [
    ...(options.modules ?? []).map((module) => `load_module ${module};`),
    // As root, nginx's workers would run as nobody, who may not read the checkout.
    ...(process.getuid?.() === 0 ? ['user root;'] : []),
    'daemon off;',
    'worker_processes 1;',
    `pid ${join(dir, 'nginx.pid')};`,
    `error_log ${join(dir, 'error.log')} info;`,
    'events { worker_connections 512; }',
    'http {',
    `  include ${MIME_TYPES};`,
    '  default_type application/octet-stream;',
    ...(format ? [`  log_format custom '${options.accessLogFormat}';`] : []),
    `  access_log ${join(dir, 'access.log')}${format};`,
    `  ${temp('client_body')}`,
    `  ${temp('proxy')}`,
    `  ${temp('fastcgi')}`,
    `  ${temp('uwsgi')}`,
    `  ${temp('scgi')}`,
    ...options.http.map((line) => `  ${line}`),
    '}',
    '',
  ].join('\n');
}

export async function startNginx(options: NginxOptions): Promise<RunningNginx> {
  const { dir } = options;
  mkdirSync(dir, { recursive: true });
  const configFile = join(dir, 'nginx.conf');
  const errorLog = join(dir, 'error.log');
  writeFileSync(configFile, nginxConfig(options));
  const args = ['-p', dir, '-e', errorLog, '-c', configFile];
  const check = spawnSync(NGINX_PATH, [...args, '-t'], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx -t refused the configuration:\n${check.stderr}`);
  try {
    const nginx = await startServer({
      name: 'nginx',
      command: NGINX_PATH,
      args,
      cwd: dir,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? dir },
      output: options.outputLog ?? join(dir, 'nginx.out'),
      exitWithParent: true,
      health: options.readyUrl,
      readyTimeoutMs: READY_TIMEOUT_MS,
    });
    return { ...nginx, errorLog, accessLog: join(dir, 'access.log') };
  } catch (error) {
    const log = existsSync(errorLog) ? readFileSync(errorLog, 'utf8').slice(-3000) : '(none)';
    throw new Error(`${(error as Error).message}\n${errorLog} ends with:\n${log}`);
  }
}

export function startSiteFile(dir: string, site: string, statusPort: number | string): Promise<RunningNginx> {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'gift-box.conf');
  writeFileSync(file, site);
  return startNginx({
    dir: join(dir, 'nginx'),
    http: [`include ${file};`],
    modules: [BROTLI_STATIC_MODULE],
    readyUrl: `http://127.0.0.1:${statusPort}/stub_status`,
  });
}
