/**
 * The production form, as the README's "Running in production" ships it: only the manifests,
 * the lock and the built folders (no source) in a fresh folder, `npm ci --omit=dev`, and the five
 * servers started with plain node on their bundles. A server that needs tsx, TypeScript source, a
 * devDependency or a package its workspace does not list fails here. Uses the global setup's build.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REMOTES } from 'shared/remotes';
import { expect, test } from '../support/fixtures';
import { httpGet, httpGetPage } from '../support/http';
import {
  copyShippedFiles,
  freePort,
  installProductionDependencies,
  startBundle,
  type InstallResult,
} from '../support/production';
import {
  killProcesses as killBundles,
  stopProcess as stopBundle,
  waitUntilHealthy,
  type RunningProcess as BundleProcess,
} from 'testbed/process';

interface Part {
  name: string;
  portVariable: string;
  bundle: string;
  health: string;
  /** The build file whose id `/healthz` reports (static servers). */
  buildFile?: string;
}

const PARTS: readonly Part[] = [
  { name: 'api', portVariable: 'API_PORT', bundle: 'dist/index.js', health: '/api/health' },
  {
    name: 'host',
    portVariable: 'HOST_PORT',
    bundle: 'dist-server/main.js',
    health: '/healthz',
    buildFile: 'dist/_app/builds/latest.json',
  },
  // remote-gifts on REMOTE_GIFTS_PORT, and so on for every remote of the registry.
  ...Object.values(REMOTES).map((remote) => ({
    name: remote.packageDir,
    portVariable: remote.portEnv,
    bundle: 'dist-server/main.js',
    health: '/healthz',
    buildFile: 'dist/builds/latest.json',
  })),
];
const STATIC_PARTS = PARTS.filter((part) => part.buildFile !== undefined);

// The production copy's servers are its own, on run-time ports of the worker's block: the
// suite's stay up, idle, for the next file.
test.use({ serverOptions: { only: [], leaveIdle: true } });

let copy: string;
let install: InstallResult;
const origins = new Map<string, string>();
const servers = new Map<string, BundleProcess>();

function originOf(name: string): string {
  const origin = origins.get(name);
  if (!origin) throw new Error(`no ${name} server`);
  return origin;
}

/** The same variables for every server: its own port, where the others are, loopback only. */
function serverEnv(ports: Map<string, number>): Record<string, string> {
  const env: Record<string, string> = {
    LISTEN_HOST: '127.0.0.1',
    API_HOST: '127.0.0.1',
    HOST_ORIGIN: originOf('host'),
    API_BASE_URL: originOf('api'),
    // A production API signs its visitor cookie with the operator's secret, and will not start without one.
    VISITOR_COOKIE_SECRETS: randomBytes(32).toString('base64url'),
    // And so the pages' ticket secret, which the host's server signs with.
    PAGE_TICKET_SECRETS: randomBytes(32).toString('base64url'),
    LOG_LEVEL: 'warn',
  };
  for (const remote of Object.values(REMOTES)) env[remote.urlEnv] = `${originOf(remote.packageDir)}/mf-manifest.json`;
  for (const part of PARTS) env[part.portVariable] = String(ports.get(part.name));
  return env;
}

test.beforeAll(async () => {
  test.setTimeout(150_000);
  copy = mkdtempSync(join(tmpdir(), 'gift-box-production-'));
  copyShippedFiles(copy);
  install = await installProductionDependencies(copy);
  console.log(`[e2e] npm ci --omit=dev in a copy of what ships: ${(install.durationMs / 1000).toFixed(1)} s`);
  if (install.exitCode !== 0)
    throw new Error(`npm ci --omit=dev failed (exit ${install.exitCode}):\n${install.output.slice(-3000)}`);

  const ports = new Map<string, number>();
  for (const part of PARTS) {
    ports.set(part.name, await freePort());
    origins.set(part.name, `http://127.0.0.1:${ports.get(part.name)}`);
  }
  const env = serverEnv(ports);
  // The API keeps its data where it would by default: inside the copy, removed with it. The host's
  // server last, once the servers it reads are up: it is ready after its first read of each
  // remote, even a failed one, and its pages carry a remote's prerendered text from a good read.
  const start = async (parts: typeof PARTS) => {
    for (const part of parts) servers.set(part.name, startBundle(part.name, join(copy, part.name), part.bundle, env));
    await Promise.all(
      parts.map((part) =>
        waitUntilHealthy(servers.get(part.name) as BundleProcess, `${originOf(part.name)}${part.health}`),
      ),
    );
  };
  await start(PARTS.filter((part) => part.name !== 'host'));
  await start(PARTS.filter((part) => part.name === 'host'));
});

test.afterAll(() => {
  killBundles([...servers.values()]);
  if (copy) rmSync(copy, { recursive: true, force: true });
});

test('npm ci --omit=dev installs the production dependencies only, with no engine warnings', () => {
  expect(install.output).not.toMatch(/EBADENGINE/);
  const installed = (name: string) => existsSync(join(copy, 'node_modules', name, 'package.json'));
  for (const name of ['fastify', 'pg', '@electric-sql/pglite', 'zod', 'react-router-dom'])
    expect([name, installed(name)]).toEqual([name, true]);
  for (const name of ['tsx', 'esbuild', 'webpack', 'webpack-dev-server', 'jest', 'eslint'])
    expect([name, installed(name)]).toEqual([name, false]);
  // Nothing to run from source: the servers are the bundles alone.
  for (const source of ['api/src', 'host/server', 'shared/src', 'remote-gifts/server'])
    expect([source, existsSync(join(copy, source))]).toEqual([source, false]);
});

for (const part of STATIC_PARTS) {
  test(`${part.name} answers GET /healthz with the build it serves`, async () => {
    const build = JSON.parse(readFileSync(join(copy, part.name, part.buildFile as string), 'utf8')) as {
      id: string;
      codeVersion?: string;
    };
    const res = await httpGet(`${originOf(part.name)}/healthz`, { accept: 'text/html' });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    // The host's server also says whether the build published in its folder is of its own code,
    // and how many routes it composed from the remotes' manifests, and left out.
    const registryRouteCount = Object.values(REMOTES).flatMap(({ exposes }) =>
      Object.values(exposes).flatMap(({ routes }) => routes),
    ).length;
    const published =
      part.name === 'host'
        ? {
            published: { build: build.id, codeVersion: build.codeVersion, served: true },
            composition: { routes: registryRouteCount, refused: 0 },
          }
        : {};
    expect(JSON.parse(res.body)).toStrictEqual({ status: 'ok', build: build.id, ...published });
  });
}

test('the API answers GET /api/health', async () => {
  const res = await httpGet(`${originOf('api')}/api/health`);
  expect(res.status).toBe(200);
  expect(JSON.parse(res.body)).toStrictEqual({ status: 'ok' });
});

test('the host serves its page at / and a runtime configuration pointing at the other servers', async () => {
  const page = await httpGetPage(`${originOf('host')}/`);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
  // The built page, with the runtime configuration written in and the home page prerendered
  // (the bundled server renders the host's frame; the content remote's text is in it).
  const built = readFileSync(join(copy, 'host', 'dist', 'index.html'), 'utf8');
  const mainScript = /<script[^>]* src="?([^" >]+)/.exec(built)?.[1];
  expect(mainScript).toMatch(/^\/main\.[0-9a-f]+\.js$/);
  expect(page.body).toContain(`src="${mainScript}"`);
  expect(page.body).toContain('<script type="application/json" id="gift-box-config">');
  expect(page.body).toContain('<div id="root" data-prerendered="HomePage">');
  // The content remote's part of the page, marked as its own (telemetry attributes what is in it).
  expect(page.body).toMatch(
    /<main id="main"[^>]*><div data-part="content"[^>]*><article class="p-content"[^>]*><h1[^>]*>[^<]+<\/h1>/,
  );
  const config = JSON.parse((await httpGet(`${originOf('host')}/config.json`)).body) as {
    remotes: Record<string, string>;
    apiBaseUrl: string;
  };
  expect(config.apiBaseUrl).toBe(originOf('api'));
  expect(config.remotes.gifts).toBe(`${originOf('remote-gifts')}/mf-manifest.json`);
});

// Last: it stops the servers.
test('SIGTERM stops every server with exit code 0', async () => {
  const codes = await Promise.all(
    PARTS.map(async (part) => [part.name, await stopBundle(servers.get(part.name) as BundleProcess)] as const),
  );
  expect(codes).toStrictEqual(PARTS.map((part) => [part.name, 0]));
});
