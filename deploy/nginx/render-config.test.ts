import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { STRICT_TRANSPORT_SECURITY } from 'host/server/security-headers';
import { REMOTE_NAMES } from 'shared/remotes';
import {
  buildNginxConfig,
  checkSiteFiles,
  FAIL_TIMEOUT,
  HSTS,
  NginxConfigError,
  renderNginxConfig,
  RESTART_PAUSE_SECONDS,
} from './render-config';
import { GATEWAY_MESSAGES } from './error-pages';
import { PAGE_BURST, PAGE_RATE } from './site-values';

const REQUIRED = {
  GIFT_BOX_API_SERVERS: '10.0.0.5:3004, 10.0.0.6:3004',
  GIFT_BOX_HOST_DIST: '/srv/gift-box/host/dist',
  GIFT_BOX_REMOTES_DIR: '/srv/gift-box/remotes/',
};

/** A host's built folder and a remotes' folder with every registered remote's folder, under `folder`. */
function siteFolders(folder: string): { GIFT_BOX_HOST_DIST: string; GIFT_BOX_REMOTES_DIR: string } {
  const dirs = { GIFT_BOX_HOST_DIST: join(folder, 'dist'), GIFT_BOX_REMOTES_DIR: join(folder, 'remotes') };
  mkdirSync(dirs.GIFT_BOX_HOST_DIST, { recursive: true });
  for (const remote of REMOTE_NAMES) mkdirSync(join(dirs.GIFT_BOX_REMOTES_DIR, remote), { recursive: true });
  return dirs;
}

describe('renderNginxConfig', () => {
  it('fills in every value: one upstream server per API process, the folders, the defaults', () => {
    const config = renderNginxConfig(REQUIRED);
    expect(config).toContain(
      '    server 10.0.0.5:3004 max_fails=1 fail_timeout=1s;\n    server 10.0.0.6:3004 max_fails=1',
    );
    expect(config).toContain('server 127.0.0.1:3000 max_fails=1');
    expect(config).toContain('root /srv/gift-box/host/dist;');
    expect(config).toContain('alias /srv/gift-box/remotes/;');
    expect(config).toContain('listen 80;');
    expect(config).toContain('server_name _;');
    expect(config).not.toMatch(/\$\{GIFT_BOX_/);
    // Over plain HTTP no Strict-Transport-Security is sent.
    expect(config).not.toContain('Strict-Transport-Security');
  });

  it('with a certificate and its key: TLS, and HSTS with the built files', () => {
    const config = renderNginxConfig({
      ...REQUIRED,
      GIFT_BOX_LISTEN: '443 ssl',
      GIFT_BOX_SERVER_NAME: 'gifts.example.com',
      GIFT_BOX_TLS_CERTIFICATE: '/etc/ssl/gifts.pem',
      GIFT_BOX_TLS_CERTIFICATE_KEY: '/etc/ssl/gifts.key',
    });
    expect(config).toContain('listen 443 ssl;');
    expect(config).toContain('ssl_certificate /etc/ssl/gifts.pem;');
    expect(config).toContain('ssl_certificate_key /etc/ssl/gifts.key;');
    expect(config).toContain('add_header Strict-Transport-Security $gift_box_hsts always;');
    expect(config).toContain(`static "${HSTS}";`);
  });

  it("sends the host server's Strict-Transport-Security value (one source)", () => {
    expect(HSTS).toBe(STRICT_TRANSPORT_SECURITY);
  });

  it('logs to its own access log in the masked format, unless told otherwise', () => {
    const accessLog = (config: string) => config.split(/^server \{$/m)[1]?.match(/^ *access_log .*$/gm) ?? [];
    expect(accessLog(renderNginxConfig(REQUIRED))).toEqual([
      '    access_log /var/log/nginx/gift-box.access.log gift_box;',
    ]);
    expect(accessLog(renderNginxConfig({ ...REQUIRED, GIFT_BOX_ACCESS_LOG: '/srv/logs/site.log' }))).toEqual([
      '    access_log /srv/logs/site.log gift_box;',
    ]);
    expect(accessLog(renderNginxConfig({ ...REQUIRED, GIFT_BOX_ACCESS_LOG: 'off' }))).toEqual(['    access_log off;']);
    // inherit: no line of the site's own, so the http block's access_log applies.
    expect(accessLog(renderNginxConfig({ ...REQUIRED, GIFT_BOX_ACCESS_LOG: 'inherit' }))).toEqual([]);
    expect(renderNginxConfig(REQUIRED)).toMatch(
      /^log_format gift_box '[^;]*"\$gift_box_log_request"[^;]*"\$gift_box_log_referer"/m,
    );
  });

  it('routes /metrics and /stub_status nowhere on the public server, and serves stub_status on loopback only', () => {
    const config = renderNginxConfig(REQUIRED);
    const [publicServer = '', statusServer = ''] = config.split(/^server \{$/m).slice(1);
    // A regular expression location: it wins over the `/` prefix that goes to the host's server.
    expect(publicServer).toContain(
      '    location ~ ^/(metrics|stub_status)(/|$) {\n        default_type text/plain;\n        return 404',
    );
    expect(publicServer).not.toContain('stub_status;');
    expect(statusServer).toContain('    listen 127.0.0.1:8080;\n');
    expect(statusServer).toContain('stub_status;\n        allow 127.0.0.1;\n        deny all;');
    // The status server passes nothing on and serves no file.
    expect(statusServer).not.toMatch(/proxy_pass|root |alias |try_files/);
    expect(config.split(/^server \{$/m)).toHaveLength(3);
  });

  it("limits page requests per client address, and only those the host's server answers", () => {
    const config = renderNginxConfig(REQUIRED);
    expect(config).toContain(`limit_req_zone $binary_remote_addr zone=gift_box_pages:10m rate=${PAGE_RATE};`);
    const locations = config.split(/^server \{$/m)[1]?.split(/^ {4}location /m) ?? [];
    const limited = locations.filter((location) => location.includes('limit_req '));
    expect(limited).toHaveLength(1);
    expect(limited[0]).toMatch(/^@host \{/);
    expect(limited[0]).toContain(`limit_req zone=gift_box_pages burst=${PAGE_BURST} nodelay;`);
    expect(limited[0]).toContain('limit_req_status 429;');
    const tuned = renderNginxConfig({ ...REQUIRED, GIFT_BOX_PAGE_RATE: '30r/m', GIFT_BOX_PAGE_BURST: '0' });
    expect(tuned).toContain('zone=gift_box_pages:10m rate=30r/m;');
    expect(tuned).toContain('limit_req zone=gift_box_pages burst=0 nodelay;');
  });

  it('puts the status server on the port it is given', () => {
    expect(renderNginxConfig({ ...REQUIRED, GIFT_BOX_STATUS_PORT: '9145' })).toContain('listen 127.0.0.1:9145;');
  });

  it.each([
    [{ GIFT_BOX_STATUS_PORT: '0' }, 'GIFT_BOX_STATUS_PORT must be a port number between 1 and 65535, got "0"'],
    [{ GIFT_BOX_STATUS_PORT: '80;' }, 'GIFT_BOX_STATUS_PORT must be a port number'],
    [{ GIFT_BOX_LISTEN: '8080' }, 'GIFT_BOX_STATUS_PORT must differ from the port of GIFT_BOX_LISTEN (8080)'],
    [
      { GIFT_BOX_LISTEN: '127.0.0.1:9000', GIFT_BOX_STATUS_PORT: '9000' },
      'GIFT_BOX_STATUS_PORT must differ from the port of GIFT_BOX_LISTEN (9000)',
    ],
    [{ GIFT_BOX_STATUS_PORT: '80' }, 'GIFT_BOX_STATUS_PORT must differ from the port of GIFT_BOX_LISTEN (80)'],
  ])('refuses the status port of %j', (change, message) => {
    expect(() => renderNginxConfig({ ...REQUIRED, ...change })).toThrow(message);
  });

  it.each([
    [{ GIFT_BOX_API_SERVERS: undefined }, 'GIFT_BOX_API_SERVERS is not set'],
    [{ GIFT_BOX_API_SERVERS: '10.0.0.5' }, 'GIFT_BOX_API_SERVERS must be host:port addresses'],
    [{ GIFT_BOX_API_SERVERS: '10.0.0.5:3004;deny all' }, 'not valid: "10.0.0.5:3004;deny all"'],
    [{ GIFT_BOX_HOST_DIST: 'host/dist' }, 'GIFT_BOX_HOST_DIST must be an absolute path'],
    [{ GIFT_BOX_REMOTES_DIR: '/srv/my remotes' }, 'GIFT_BOX_REMOTES_DIR must be an absolute path without spaces'],
    [{ GIFT_BOX_SERVER_NAME: 'a; include /etc/passwd' }, 'GIFT_BOX_SERVER_NAME must not contain'],
    [{ GIFT_BOX_TLS_CERTIFICATE: '/etc/ssl/gifts.pem' }, 'go together: set both'],
    [{ GIFT_BOX_ACCESS_LOG: 'gift-box.log' }, 'GIFT_BOX_ACCESS_LOG must be an absolute path'],
    [{ GIFT_BOX_ACCESS_LOG: '/var/log/a.log main' }, 'GIFT_BOX_ACCESS_LOG must be an absolute path without spaces'],
    [{ GIFT_BOX_PAGE_RATE: '20' }, 'GIFT_BOX_PAGE_RATE must be requests a second or a minute'],
    [{ GIFT_BOX_PAGE_RATE: '0r/s' }, 'GIFT_BOX_PAGE_RATE must be requests a second or a minute'],
    [{ GIFT_BOX_PAGE_RATE: '20r/s; allow all' }, 'GIFT_BOX_PAGE_RATE must be requests a second or a minute'],
    [{ GIFT_BOX_PAGE_BURST: 'lots' }, 'GIFT_BOX_PAGE_BURST must be a whole number'],
  ])('refuses %j, naming the variable', (change, message) => {
    expect(() => renderNginxConfig({ ...REQUIRED, ...change })).toThrow(NginxConfigError);
    expect(() => renderNginxConfig({ ...REQUIRED, ...change })).toThrow(message);
  });

  it('names every bad variable at once, one problem each', () => {
    const change = {
      GIFT_BOX_API_SERVERS: undefined,
      GIFT_BOX_HOST_DIST: 'host/dist',
      GIFT_BOX_SERVER_NAME: 'a;b',
      GIFT_BOX_PAGE_BURST: 'lots',
    };
    let error: unknown;
    try {
      renderNginxConfig({ ...REQUIRED, ...change });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(NginxConfigError);
    const { problems, message } = error as NginxConfigError;
    expect(problems).toEqual([
      expect.stringMatching(/^GIFT_BOX_API_SERVERS is not set/),
      expect.stringMatching(/^GIFT_BOX_HOST_DIST must be an absolute path/),
      expect.stringMatching(/^GIFT_BOX_SERVER_NAME must not contain/),
      expect.stringMatching(/^GIFT_BOX_PAGE_BURST must be a whole number/),
    ]);
    expect(message).toBe(problems.join('\n'));
  });

  it.each([
    [
      { GIFT_BOX_LISTEN: '443 ssl' },
      'GIFT_BOX_LISTEN has ssl: set GIFT_BOX_TLS_CERTIFICATE and GIFT_BOX_TLS_CERTIFICATE_KEY',
    ],
    [
      {
        GIFT_BOX_LISTEN: '443',
        GIFT_BOX_TLS_CERTIFICATE: '/etc/ssl/a.pem',
        GIFT_BOX_TLS_CERTIFICATE_KEY: '/etc/ssl/a.key',
      },
      'GIFT_BOX_LISTEN must have ssl with a certificate (e.g. 443 ssl), got "443"',
    ],
  ])('refuses TLS half set up: %j', (change, message) => {
    expect(() => renderNginxConfig({ ...REQUIRED, ...change })).toThrow(message);
  });

  describe('with TLS, plain HTTP', () => {
    const TLS = {
      ...REQUIRED,
      GIFT_BOX_LISTEN: '443 ssl',
      GIFT_BOX_TLS_CERTIFICATE: '/etc/ssl/gifts.pem',
      GIFT_BOX_TLS_CERTIFICATE_KEY: '/etc/ssl/gifts.key',
    };
    const servers = (config: string) => config.split(/^server \{$/m).slice(1);

    it('is a server on port 80 that sends every request to the same host and path over HTTPS', () => {
      const redirect = servers(renderNginxConfig(TLS)).find((server) => server.includes('return 301'));
      expect(redirect).toContain('    listen 80;\n');
      expect(redirect).toContain('        return 301 https://$host$request_uri;');
      expect(redirect).toContain('    access_log /var/log/nginx/gift-box.access.log gift_box;');
      expect(redirect).not.toMatch(/proxy_pass|root |alias /);
    });

    it('names the HTTPS port when it is not 443, listens where told, or not at all', () => {
      const config = renderNginxConfig({ ...TLS, GIFT_BOX_LISTEN: '8443 ssl', GIFT_BOX_HTTP_LISTEN: '127.0.0.1:8081' });
      expect(config).toContain('    listen 127.0.0.1:8081;\n');
      expect(config).toContain('return 301 https://$host:8443$request_uri;');
      expect(renderNginxConfig({ ...TLS, GIFT_BOX_HTTP_LISTEN: 'off' })).not.toContain('return 301');
      expect(renderNginxConfig(REQUIRED)).not.toContain('return 301');
      expect(() => renderNginxConfig({ ...TLS, GIFT_BOX_HTTP_LISTEN: '8080' })).toThrow(
        'GIFT_BOX_HTTP_LISTEN must differ from the ports of GIFT_BOX_LISTEN and GIFT_BOX_STATUS_PORT (8080)',
      );
    });
  });

  it("explains the upstreams' trade-off beside them", () => {
    const config = renderNginxConfig(REQUIRED);
    expect(config).toContain(
      `# fail_timeout=${FAIL_TIMEOUT} weighs how fast a dead process leaves the rotation against`,
    );
    expect(config).toContain(`waits ${RESTART_PAUSE_SECONDS} s after one is ready before stopping the next`);
  });

  it("sends nginx's own 502 and 504 to a page in the app's look, and under /api/ to the API's error body", () => {
    const config = renderNginxConfig(REQUIRED);
    const [publicServer = ''] = config.split(/^server \{$/m).slice(1);
    expect(publicServer).toContain('    error_page 502 @gift_box_page_502;\n    error_page 504 @gift_box_page_504;\n');
    const api = publicServer.split('    location /api/ {')[1]?.split('\n    }')[0] ?? '';
    expect(api).toContain('error_page 502 @gift_box_api_502;\n        error_page 504 @gift_box_api_504;');
    expect(publicServer).toContain(`return 504 '<!doctype html>`);
    expect(publicServer).toContain(
      `return 504 '{"statusCode":504,"statusMessage":"Gateway Timeout","message":"${GATEWAY_MESSAGES[504]}"}';`,
    );
  });

  it('refuses a template naming a value it does not know', () => {
    expect(() => renderNginxConfig(REQUIRED, 'root ${GIFT_BOX_ROOT};')).toThrow('unknown value ${GIFT_BOX_ROOT}');
  });
});

describe('npm run nginx-config', () => {
  /** The script as npm's tsx runs it, in Node with tsx's loader (without npx's and tsx's own processes). */
  const run = (args: string[], env: Record<string, string | undefined>) =>
    spawnSync(process.execPath, ['--import', require.resolve('tsx'), join(__dirname, 'render-config.ts'), ...args], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      encoding: 'utf8',
    });

  it('writes the file it is given', () => {
    const folder = mkdtempSync(join(tmpdir(), 'nginx-config-'));
    try {
      const env = { ...REQUIRED, ...siteFolders(folder) };
      const { status, stderr } = run([join(folder, 'gift-box.conf')], env);
      expect(status).toBe(0);
      expect(stderr).toContain('check it with nginx -t');
      expect(readFileSync(join(folder, 'gift-box.conf'), 'utf8')).toBe(renderNginxConfig(env));
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 30_000);

  it('names every bad variable and missing folder at once, one a line, and writes nothing', () => {
    const folder = mkdtempSync(join(tmpdir(), 'nginx-config-'));
    try {
      const env = {
        ...REQUIRED,
        GIFT_BOX_API_SERVERS: '10.0.0.5',
        GIFT_BOX_LISTEN: '443 ssl',
        GIFT_BOX_PAGE_RATE: 'fast',
        GIFT_BOX_HOST_DIST: join(folder, 'no-dist'),
        GIFT_BOX_REMOTES_DIR: folder,
      };
      const { status, stdout, stderr } = run([join(folder, 'gift-box.conf')], env);
      expect(status).toBe(1);
      expect(stdout).toBe('');
      expect(existsSync(join(folder, 'gift-box.conf'))).toBe(false);
      const lines = stderr.trim().split('\n');
      expect(lines).toEqual([
        expect.stringMatching(/^nginx-config: GIFT_BOX_LISTEN has ssl: set GIFT_BOX_TLS_CERTIFICATE/),
        expect.stringMatching(/^nginx-config: GIFT_BOX_API_SERVERS must be host:port addresses/),
        expect.stringMatching(/^nginx-config: GIFT_BOX_PAGE_RATE must be requests a second or a minute/),
        `nginx-config: GIFT_BOX_HOST_DIST: no folder ${join(folder, 'no-dist')}`,
        expect.stringMatching(/^nginx-config: GIFT_BOX_REMOTES_DIR: no deployed folder for gifts, redeem, content in /),
      ]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 30_000);

  it("explains the upstreams' trade-off in its help", () => {
    const { status, stdout } = run(['--help'], {});
    expect(status).toBe(0);
    expect(stdout).toContain(`out of the rotation for fail_timeout=${FAIL_TIMEOUT} (max_fails=1)`);
    expect(stdout).toContain(`wait ${RESTART_PAUSE_SECONDS} s`);
    expect(stdout).toContain('GIFT_BOX_HTTP_LISTEN');
  }, 30_000);

  it('refuses an unknown option or a second file with exit code 1, writing nothing', () => {
    for (const args of [
      ['--out', 'site.conf'],
      ['a.conf', 'b.conf'],
    ]) {
      const { status, stdout, stderr } = run(args, REQUIRED);
      expect(status).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toMatch(
        /^nginx-config: (unknown option --out|give at most one output file)\n\nUsage: npm run nginx-config/,
      );
    }
  }, 30_000);

  it('stops with exit code 1 and the variable, writing nothing, when a value is missing', () => {
    const { status, stdout, stderr } = run([], { ...REQUIRED, GIFT_BOX_HOST_DIST: '' });
    expect(status).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain("nginx-config: GIFT_BOX_HOST_DIST is not set: the host's deploy folder");
  }, 30_000);
});

describe('checkSiteFiles', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'nginx-site-files-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  /** A self-signed certificate and its key, as `<name>.pem` and `<name>.key` in the folder. */
  function certificate(name: string): { GIFT_BOX_TLS_CERTIFICATE: string; GIFT_BOX_TLS_CERTIFICATE_KEY: string } {
    const [pem, key] = [join(folder, `${name}.pem`), join(folder, `${name}.key`)];
    execFileSync(
      'openssl',
      [
        ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1'],
        ...['-subj', '/CN=gifts.example.com', '-keyout', key, '-out', pem],
      ],
      { stdio: 'ignore' },
    );
    return { GIFT_BOX_TLS_CERTIFICATE: pem, GIFT_BOX_TLS_CERTIFICATE_KEY: key };
  }

  it('finds nothing wrong with the folders and a certificate with its own key', () => {
    expect(checkSiteFiles({ ...REQUIRED, ...siteFolders(folder), ...certificate('site') })).toEqual([]);
  });

  it("names the host's folder, the remotes' folder, and each registered remote's missing folder", () => {
    expect(
      checkSiteFiles({
        ...REQUIRED,
        GIFT_BOX_HOST_DIST: join(folder, 'dist'),
        GIFT_BOX_REMOTES_DIR: join(folder, 'r'),
      }),
    ).toEqual([
      `GIFT_BOX_HOST_DIST: no folder ${join(folder, 'dist')}`,
      `GIFT_BOX_REMOTES_DIR: no folder ${join(folder, 'r')}`,
    ]);
    const dirs = siteFolders(folder);
    const [first, ...others] = REMOTE_NAMES;
    rmSync(join(dirs.GIFT_BOX_REMOTES_DIR, first ?? ''), { recursive: true });
    expect(checkSiteFiles({ ...REQUIRED, ...dirs })).toEqual([
      `GIFT_BOX_REMOTES_DIR: no deployed folder for ${first} in ${dirs.GIFT_BOX_REMOTES_DIR} ` +
        `(npm run deploy -w remote-<name> -- ${join(dirs.GIFT_BOX_REMOTES_DIR, '<name>')})`,
    ]);
    expect(others.length).toBeGreaterThan(0);
  });

  it('names a certificate or key that is missing, is not one, or does not match', () => {
    const dirs = siteFolders(folder);
    const site = certificate('site');
    const other = certificate('other');
    expect(
      checkSiteFiles({
        ...REQUIRED,
        ...dirs,
        GIFT_BOX_TLS_CERTIFICATE: join(folder, 'no.pem'),
        GIFT_BOX_TLS_CERTIFICATE_KEY: join(folder, 'no.key'),
      }),
    ).toEqual([
      `GIFT_BOX_TLS_CERTIFICATE: cannot read ${join(folder, 'no.pem')} (no such file)`,
      `GIFT_BOX_TLS_CERTIFICATE_KEY: cannot read ${join(folder, 'no.key')} (no such file)`,
    ]);
    expect(
      checkSiteFiles({
        ...REQUIRED,
        ...dirs,
        GIFT_BOX_TLS_CERTIFICATE: site.GIFT_BOX_TLS_CERTIFICATE_KEY,
        GIFT_BOX_TLS_CERTIFICATE_KEY: site.GIFT_BOX_TLS_CERTIFICATE,
      }),
    ).toEqual([
      `GIFT_BOX_TLS_CERTIFICATE: ${site.GIFT_BOX_TLS_CERTIFICATE_KEY} holds no PEM certificate`,
      `GIFT_BOX_TLS_CERTIFICATE_KEY: ${site.GIFT_BOX_TLS_CERTIFICATE} holds no private key nginx can read (PEM, no passphrase)`,
    ]);
    expect(
      checkSiteFiles({
        ...REQUIRED,
        ...dirs,
        ...site,
        GIFT_BOX_TLS_CERTIFICATE_KEY: other.GIFT_BOX_TLS_CERTIFICATE_KEY,
      }),
    ).toEqual([
      `GIFT_BOX_TLS_CERTIFICATE_KEY: ${other.GIFT_BOX_TLS_CERTIFICATE_KEY} is not the key of the certificate ${site.GIFT_BOX_TLS_CERTIFICATE}`,
    ]);
  });

  it('is part of buildNginxConfig: every problem of the values and of the files together', () => {
    expect(() => buildNginxConfig({ ...REQUIRED, GIFT_BOX_PAGE_BURST: 'lots' })).toThrow(
      /GIFT_BOX_PAGE_BURST must be a whole number[^]*\nGIFT_BOX_HOST_DIST: no folder \/srv\/gift-box\/host\/dist/,
    );
  });
});
