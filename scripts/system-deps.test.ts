/** @jest-environment node */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { plan, type SystemPackage } from './system-deps';

const ROOT = join(__dirname, '..');
const pkg = (name: string): SystemPackage => ({
  name,
  neededBy: `the ${name} tests`,
  otherwise: `${name} from elsewhere`,
  present: () => false,
});
const BOTH = [pkg('chromium'), pkg('postgresql')];

describe('plan', () => {
  it('does nothing when nothing is missing', () => {
    expect(plan([], { root: false, aptGet: false })).toEqual({ kind: 'ready' });
  });

  it('installs what is missing as root with apt-get', () => {
    expect(plan(BOTH, { root: true, aptGet: true })).toEqual({ kind: 'install', names: ['chromium', 'postgresql'] });
  });

  it('otherwise names the exact command to run, in one message', () => {
    const next = plan(BOTH, { root: false, aptGet: true });
    expect(next).toEqual({
      kind: 'refuse',
      message:
        'The tests need chromium (the chromium tests) and postgresql (the postgresql tests). Install them, then run the tests again:\n' +
        '  sudo apt-get update && sudo apt-get install -y --no-install-recommends chromium postgresql',
    });
  });

  it('without apt-get, says what to provide instead', () => {
    const next = plan([pkg('chromium')], { root: true, aptGet: false });
    expect(next.kind).toBe('refuse');
    expect(next.kind === 'refuse' && next.message).toBe(
      'The tests need chromium (the chromium tests), and this system has no apt-get to install it. Provide chromium from elsewhere, then run the tests again.',
    );
  });
});

describe('the command', () => {
  /** The script as `npm test` runs it, with no apt-get on PATH (so it never installs here). */
  const run = (args: string[], env: Record<string, string>) =>
    spawnSync(process.execPath, ['--require', 'tsx/cjs', 'scripts/system-deps.ts', ...args], {
      cwd: ROOT,
      env: { PATH: '/nonexistent', HOME: process.env.HOME ?? '/', ...env },
      encoding: 'utf8',
    });

  it('exits 1 with one message when something is missing and cannot be installed', () => {
    const { status, stderr } = run([], { CHROMIUM_PATH: '/nonexistent/chromium' });
    expect(status).toBe(1);
    expect(stderr).toContain("The tests need chromium (the gate's, the bench's and the staging traffic's tests)");
    expect(stderr).toContain('a Chromium binary at /nonexistent/chromium (or set CHROMIUM_PATH)');
  }, 30_000);

  it('names Prometheus and its exporters, each where it is looked for, when they are missing', () => {
    const { status, stderr } = run(['prometheus', 'prometheus-nginx-exporter', 'prometheus-postgres-exporter'], {
      PROMTOOL_PATH: '/nonexistent/promtool',
      NGINX_EXPORTER_PATH: '/nonexistent/nginx-exporter',
      POSTGRES_EXPORTER_PATH: '/nonexistent/postgres-exporter',
    });
    expect(status).toBe(1);
    expect(stderr).toContain(
      "The tests need prometheus (promtool's checks and the monitoring setup's tests) and prometheus-nginx-exporter",
    );
    expect(stderr).toContain('(or set PROMETHEUS_PATH and PROMTOOL_PATH)');
    expect(stderr).toContain('prometheus-nginx-exporter at /nonexistent/nginx-exporter');
    expect(stderr).toContain('prometheus-postgres-exporter at /nonexistent/postgres-exporter');
  }, 30_000);

  it('exits 0 when what was asked for is there', () => {
    const { status, stdout, stderr } = run(['postgresql'], {
      CHROMIUM_PATH: '/nonexistent/chromium',
      TEST_DATABASE_URL: 'postgres://localhost/x',
    });
    expect({ status, stdout, stderr }).toEqual({ status: 0, stdout: '', stderr: '' });
  }, 30_000);

  it('asks for no headless shell when CHROMIUM_PATH names the browser the tests drive', () => {
    const folder = mkdtempSync(join(tmpdir(), 'system-deps-test-'));
    try {
      const chromium = join(folder, 'chromium');
      writeFileSync(chromium, '');
      const { status, stdout, stderr } = run(['chromium', 'chromium-headless-shell'], { CHROMIUM_PATH: chromium });
      expect({ status, stdout, stderr }).toEqual({ status: 0, stdout: '', stderr: '' });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 30_000);

  // Only root installs; anyone else is told the exact command instead (CI runs as root).
  it('with apt-get, installs what is missing as root, or names the sudo command otherwise', () => {
    const folder = mkdtempSync(join(tmpdir(), 'system-deps-test-'));
    try {
      // A stand-in apt-get that records its arguments and "installs" chromium.
      const chromium = join(folder, 'chromium');
      writeFileSync(
        join(folder, 'apt-get'),
        `#!/bin/sh\n[ "$1" = --version ] && exit 0\necho "$DEBIAN_FRONTEND $*" >> ${folder}/calls\n[ "$1" = install ] && touch ${chromium}\nexit 0\n`,
      );
      chmodSync(join(folder, 'apt-get'), 0o755);

      const { status, stderr } = run([], {
        PATH: `${folder}:/usr/bin:/bin`,
        CHROMIUM_PATH: chromium,
        TEST_DATABASE_URL: 'postgres://localhost/x',
      });

      if (process.getuid?.() === 0) {
        expect(status).toBe(0);
        expect(readFileSync(join(folder, 'calls'), 'utf8')).toBe(
          'noninteractive update -q\nnoninteractive install -y --no-install-recommends -q chromium\n',
        );
      } else {
        expect(status).toBe(1);
        expect(stderr).toContain('sudo apt-get update && sudo apt-get install');
        expect(existsSync(join(folder, 'calls'))).toBe(false);
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 30_000);

  it('refuses a Chromium path under the name CHROMIUM_PATH replaced, naming the new one', () => {
    const { status, stderr } = run(['chromium'], { E2E_CHROMIUM_PATH: '/nonexistent/chromium' });
    expect(status).toBe(1);
    expect(stderr).toContain(
      'E2E_CHROMIUM_PATH is renamed CHROMIUM_PATH: set CHROMIUM_PATH=/nonexistent/chromium instead',
    );
  }, 30_000);

  it('lists the packages it knows in its help', () => {
    const { status, stdout } = run(['--help'], {});
    expect(status).toBe(0);
    expect(stdout).toMatch(/^Usage: tsx scripts\/system-deps.ts/);
    expect(stdout).toContain('chromium, chromium-headless-shell, postgresql, nginx, libnginx-mod-http-brotli-static');
  }, 30_000);

  it('refuses a package it does not know', () => {
    const { status, stderr } = run(['nginx-full'], {});
    expect(status).toBe(2);
    expect(stderr).toMatch(/^system-deps: unknown package nginx-full/);
    expect(stderr).toContain(
      'unknown package nginx-full; known: chromium, chromium-headless-shell, postgresql, nginx, libnginx-mod-http-brotli-static',
    );
  }, 30_000);
});
