/**
 * What the tests need from the system, as Debian packages: `npm test` runs this first. What is
 * missing is installed when it can be (as root, with apt-get); otherwise one message names the
 * command that installs it, and the run stops.
 *   tsx scripts/system-deps.ts [package…]   (default: every package below; --help lists them)
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { CONSOLE, defineCommand, refuse, runMain } from '../deploy/command-line';
import { findPostgresBinaries } from 'testbed/postgres';
import { CHROMIUM_PATH, HEADLESS_SHELL_PATH, TEST_CHROMIUM_PATH } from 'testbed/chromium';
import { BROTLI_STATIC_MODULE, NGINX_PATH } from 'testbed/nginx';
import { PROMETHEUS_PATH, PROMTOOL_PATH } from 'testbed/prometheus';
import { NGINX_EXPORTER_PATH, POSTGRES_EXPORTER_PATH } from 'testbed/prometheus-exporters';
import { SYSTEMD_ANALYZE_PATH } from 'testbed/systemd';

export interface SystemPackage {
  /** The Debian package. */
  name: string;
  /** Which tests need it. */
  neededBy: string;
  /** How to do without the package, on a system without apt-get. */
  otherwise: string;
  /** Whether what those tests use is there (or configured elsewhere). */
  present(): boolean;
}

export const PACKAGES: readonly SystemPackage[] = [
  {
    name: 'chromium',
    neededBy: "the gate's, the bench's and the staging traffic's tests",
    otherwise: `a Chromium binary at ${CHROMIUM_PATH} (or set CHROMIUM_PATH)`,
    present: () => existsSync(CHROMIUM_PATH),
  },
  {
    name: 'chromium-headless-shell',
    neededBy: 'the browser tests',
    otherwise: `Chromium's headless shell at ${HEADLESS_SHELL_PATH} (or set CHROMIUM_PATH, which the tests then drive)`,
    // Set, CHROMIUM_PATH is what the tests drive, and the chromium package's check covers it.
    present: () => TEST_CHROMIUM_PATH !== HEADLESS_SHELL_PATH || existsSync(HEADLESS_SHELL_PATH),
  },
  {
    name: 'postgresql',
    neededBy: "the API's tests",
    otherwise:
      "PostgreSQL's initdb and pg_ctl on PATH (or TEST_DATABASE_URL naming a server where the role may create databases)",
    present: () => {
      if (process.env.TEST_DATABASE_URL) return true;
      try {
        findPostgresBinaries();
        return true;
      } catch {
        return false;
      }
    },
  },
  {
    name: 'nginx',
    neededBy: 'the browser tests of the production topology',
    otherwise: `nginx at ${NGINX_PATH} (or set E2E_NGINX_PATH)`,
    present: () => existsSync(NGINX_PATH),
  },
  {
    name: 'libnginx-mod-http-brotli-static',
    neededBy: "nginx's brotli_static, in the same tests",
    otherwise: `the brotli_static module at ${BROTLI_STATIC_MODULE}`,
    present: () => existsSync(BROTLI_STATIC_MODULE),
  },
  {
    name: 'prometheus',
    neededBy: "promtool's checks and the monitoring setup's tests",
    otherwise: `prometheus and promtool at ${PROMETHEUS_PATH} and ${PROMTOOL_PATH} (or set PROMETHEUS_PATH and PROMTOOL_PATH)`,
    present: () => existsSync(PROMETHEUS_PATH) && existsSync(PROMTOOL_PATH),
  },
  {
    name: 'prometheus-nginx-exporter',
    neededBy: "the monitoring setup's tests",
    otherwise: `prometheus-nginx-exporter at ${NGINX_EXPORTER_PATH} (or set NGINX_EXPORTER_PATH)`,
    present: () => existsSync(NGINX_EXPORTER_PATH),
  },
  {
    name: 'prometheus-postgres-exporter',
    neededBy: "the monitoring setup's tests",
    otherwise: `prometheus-postgres-exporter at ${POSTGRES_EXPORTER_PATH} (or set POSTGRES_EXPORTER_PATH)`,
    present: () => existsSync(POSTGRES_EXPORTER_PATH),
  },
  {
    // A container's Debian has no systemd; a machine's has it already.
    name: 'systemd',
    neededBy: 'the checks of the supervision units (deploy/systemd)',
    otherwise: `systemd-analyze at ${SYSTEMD_ANALYZE_PATH} (or set SYSTEMD_ANALYZE_PATH)`,
    present: () => existsSync(SYSTEMD_ANALYZE_PATH),
  },
];

export type Plan = { kind: 'ready' } | { kind: 'install'; names: string[] } | { kind: 'refuse'; message: string };

const INSTALL = ['install', '-y', '--no-install-recommends'];

/** What to do about the missing packages on this system. */
export function plan(missing: readonly SystemPackage[], system: { root: boolean; aptGet: boolean }): Plan {
  if (missing.length === 0) return { kind: 'ready' };
  const names = missing.map((pkg) => pkg.name);
  if (system.root && system.aptGet) return { kind: 'install', names };
  const what = missing.map((pkg) => `${pkg.name} (${pkg.neededBy})`).join(' and ');
  const message = system.aptGet
    ? `The tests need ${what}. Install ${missing.length > 1 ? 'them' : 'it'}, then run the tests again:\n` +
      `  sudo apt-get update && sudo apt-get ${[...INSTALL, ...names].join(' ')}`
    : `The tests need ${what}, and this system has no apt-get to install ${missing.length > 1 ? 'them' : 'it'}. Provide ` +
      `${missing.map((pkg) => pkg.otherwise).join(', and ')}, then run the tests again.`;
  return { kind: 'refuse', message };
}

function run(command: string, args: string[]): boolean {
  console.log(`[system-deps] ${command} ${args.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  return spawnSync(command, args, { stdio: 'inherit', env }).status === 0;
}

const USAGE = `Usage: tsx scripts/system-deps.ts [<package>…]

Installs what the tests need from the system (as root, with apt-get), or names the command that
installs it. Packages (default: all): ${PACKAGES.map((pkg) => pkg.name).join(', ')}`;

export const systemDepsCommand = defineCommand({
  name: 'system-deps',
  summary: 'install what the tests need from the system',
  usage: USAGE,
  options: {},
  refusedStatus: 2,
  run: ({ positionals: wanted }) => {
    const unknown = wanted.filter((name) => !PACKAGES.some((pkg) => pkg.name === name));
    if (unknown.length > 0)
      refuse(`unknown package ${unknown.join(', ')}; known: ${PACKAGES.map((pkg) => pkg.name).join(', ')}`);
    return ensure(PACKAGES.filter((pkg) => wanted.length === 0 || wanted.includes(pkg.name)));
  },
});

/** Installs what of `needed` is missing, when it can; resolves to the exit status. */
function ensure(needed: readonly SystemPackage[]): number {
  const missing = () => needed.filter((pkg) => !pkg.present());
  const aptGet = spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
  const next = plan(missing(), { root: process.getuid?.() === 0, aptGet });
  if (next.kind === 'refuse') console.error(next.message);
  if (next.kind !== 'install') return next.kind === 'ready' ? 0 : 1;
  if (!run('apt-get', ['update', '-q']) || !run('apt-get', [...INSTALL, '-q', ...next.names])) return 1;
  const still = missing();
  if (still.length > 0)
    console.error(`[system-deps] still missing after apt-get: ${still.map((pkg) => pkg.otherwise).join('; ')}`);
  return still.length > 0 ? 1 : 0;
}

if (require.main === module) runMain(systemDepsCommand, CONSOLE);
