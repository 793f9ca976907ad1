import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { STRICT_TRANSPORT_SECURITY } from 'host/server/security-headers';
import { HSTS, NginxConfigError, PAGE_BURST, PAGE_RATE, renderNginxConfig } from './render-config';

const REQUIRED = {
  GIFT_BOX_API_SERVERS: '10.0.0.5:3004, 10.0.0.6:3004',
  GIFT_BOX_HOST_DIST: '/srv/gift-box/host/dist',
  GIFT_BOX_REMOTES_DIR: '/srv/gift-box/remotes/',
};

describe('renderNginxConfig', () => {
  it('fills in every value: one upstream server per API process, the folders, the defaults', () => {
    const config = renderNginxConfig(REQUIRED);
    expect(config).toContain(
      '    server 10.0.0.5:3004 max_fails=1 fail_timeout=2s;\n    server 10.0.0.6:3004 max_fails=1',
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

  it('refuses a template naming a value it does not know', () => {
    expect(() => renderNginxConfig(REQUIRED, 'root ${GIFT_BOX_ROOT};')).toThrow('unknown value ${GIFT_BOX_ROOT}');
  });
});

describe('npm run nginx-config', () => {
  const run = (args: string[], env: Record<string, string | undefined>) =>
    spawnSync('npx', ['tsx', join(__dirname, 'render-config.ts'), ...args], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      encoding: 'utf8',
    });

  it('writes the file it is given', () => {
    const folder = mkdtempSync(join(tmpdir(), 'nginx-config-'));
    try {
      const { status, stderr } = run([join(folder, 'gift-box.conf')], REQUIRED);
      expect(status).toBe(0);
      expect(stderr).toContain('check it with nginx -t');
      expect(readFileSync(join(folder, 'gift-box.conf'), 'utf8')).toBe(renderNginxConfig(REQUIRED));
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 30_000);

  it('stops with exit code 1 and the variable, writing nothing, when a value is missing', () => {
    const { status, stdout, stderr } = run([], { ...REQUIRED, GIFT_BOX_HOST_DIST: '' });
    expect(status).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain("nginx-config: GIFT_BOX_HOST_DIST is not set: the host's built folder");
  }, 30_000);
});
