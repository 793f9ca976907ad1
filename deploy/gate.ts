/**
 * The gate before promotion: checks a staged build of a remote (published by `deploy --stage`
 * into `builds/{id}/` of the folder its origin serves, `builds/latest.json` untouched) on the
 * production host itself, before any visitor gets it.
 *
 * 1. The staged build's own copy is whole (deploy.ts, `ownCopyProblem`), and it is not revoked (the
 *    host's server pins no revoked build).
 * 2. Its manifest exposes the modules the registry of remotes gives the remote, no more, no less
 *    (`shared/remotes`): the host routes to those names.
 * 3. Debian's Chromium opens the production host with a `gb_preview` cookie signed with the
 *    team's preview key (server/preview-token): the host's server pins this remote to the staged
 *    build for this browser only. Every route the registry gives the remote is visited (a route
 *    with parameters at the sample paths the team gives, since it needs a real id), and each page
 *    must: run the staged build (its inline configuration's `remoteBuilds`), answer 200 and show
 *    no error page, see no Content-Security-Policy violation, log no console error and throw no
 *    uncaught exception, register one React renderer, and paint its largest content within the
 *    LCP budget.
 *
 * Each check is reported as it ends; a failing page is photographed. The gate writes nothing
 * into the deployment folder: a failing build stays staged, and nothing current changes.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { signPreview } from 'server/preview-token';
import { isBuildId, isRevoked, previewCookieName } from 'shared/deployment';
import { RUNTIME_CONFIG_ELEMENT_ID } from 'shared/page-data';
import { CHROMIUM_PATH_ENV, DEFAULT_CHROMIUM_PATH, reactDevtoolsHook } from 'shared/chromium';
import { REMOTES, remoteSpec, type RemoteSpec } from 'shared/remotes';
import { RouteMatcher } from 'shared/route-pattern';
import { NOT_FOUND_ROUTE } from 'shared/telemetry-values';
import { defineCommand, refuse, type CommandLine } from './command-line';
import { buildFolder, ownCopyProblem, revokedMessage, type CliIo } from './deploy';
import { readDeployment } from './deployment';
import { DEFAULT_CHROMIUM_USER, launchChromium } from './gate-chromium';
import { maskIds, STAGING_SAMPLE_COMMAND } from './gate-paths';

/** The LCP budget by default (ms): Google's "needs improvement" threshold. */
export const DEFAULT_LCP_BUDGET_MS = 4000;
/** How long the preview cookie the gate signs lives: a gate run takes minutes. */
export const PREVIEW_TTL_S = 30 * 60;
/** Hosts the preview token may be sent to over plain http: it then never leaves the machine. */
const LOOPBACK_HOSTNAMES = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;
/** The variable that holds the remote's preview key (never a flag: it would show in `ps`). */
export const PREVIEW_KEY_ENV = 'PREVIEW_KEY';
/** The longest a page may take to load and settle. */
const PAGE_TIMEOUT_MS = 30_000;
/** The longest the gate waits for a settled page's largest contentful paint to be recorded. */
const LCP_WAIT_MS = 5_000;
/** How often the gate asks a page whether it has settled. */
const SETTLE_POLL_MS = 100;
/**
 * Where the gate's results go by default, from where the command was typed: a dot folder the
 * repository ignores, so a run in a checkout leaves nothing to commit.
 */
export const DEFAULT_GATE_OUT_DIR = '.gate-results';

export class GateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GateError';
  }
}

export interface GateOptions {
  /** The folder the remote's origin serves, holding the staged build in `builds/{id}/`. */
  target: string;
  remote: string;
  buildId: string;
  /** The production host's origin, such as https://giftbox.example. */
  host: string;
  /** The remote's preview key, as the host's server has it (REMOTE_<NAME>_PREVIEW_KEY). */
  key: string;
  /** Sample paths for the routes with parameters (`/gifts/<a real gift id>`). */
  paths?: readonly string[];
  lcpBudgetMs?: number;
  /** Where screenshots of failing pages go; created when needed. */
  outDir: string;
  chromiumPath?: string;
  /**
   * A browser the caller has launched and keeps (tests share one): the gate opens its contexts
   * in it and leaves it open. Without it, the gate launches Chromium and closes it at the end.
   */
  browser?: Browser;
  /** Each check as it ends. */
  onCheck?: (check: GateCheck) => void;
  /** Now (ms); the clock by default. */
  now?: number;
  /** Stops the gate (SIGINT, SIGTERM): the browser is closed, and the gate rejects with GateStopped. */
  signal?: AbortSignal;
}

/** The gate was stopped before it had checked every page: it decided nothing. */
export class GateStopped extends GateError {
  constructor() {
    super('stopped before every page was checked: nothing was decided, nothing was changed');
    this.name = 'GateStopped';
  }
}

export interface GateCheck {
  /** What was checked: `staged copy`, `exposes`, or a page's path. */
  name: string;
  ok: boolean;
  /** Why it failed, or what it measured. */
  detail: string;
  /** The failing page's screenshot. */
  screenshot?: string;
}

export interface GateResult {
  ok: boolean;
  checks: GateCheck[];
}

export interface GatePage {
  /** The registry's route pattern. */
  route: string;
  /** The path visited. */
  path: string;
}

/** A path with each id-like segment (16 or more URL-safe characters) cut to its first four. */
function maskIdLike(path: string): string {
  return path.replace(/(?<=\/)([A-Za-z0-9_-]{4})[A-Za-z0-9_-]{12,}/g, '$1…');
}

/**
 * The pages to visit: every route of the remote, a route without parameters at its own path, one
 * with parameters at each sample path that matches it. Refused, naming what is wrong: a route
 * with parameters and no sample, a sample that matches no route of the remote.
 */
export function gatePages(spec: RemoteSpec, paths: readonly string[] = []): GatePage[] {
  const routes = Object.values(spec.exposes).flatMap((module) => module.routes.map((route) => route.path));
  for (const path of paths) {
    if (!path.startsWith('/') || path.startsWith('//'))
      throw new GateError(`--path ${maskIdLike(path)} is not a path (it starts with one /)`);
    if (new RouteMatcher(routes).patternOfPath(path) === NOT_FOUND_ROUTE) {
      throw new GateError(
        `--path ${maskIdLike(path)} matches no route of this remote (its routes: ${routes.join(', ')})`,
      );
    }
  }
  const pages: GatePage[] = [];
  for (const route of routes) {
    if (!route.includes(':')) {
      pages.push({ route, path: route });
      continue;
    }
    const samples = paths.filter((path) => new RouteMatcher([route]).patternOfPath(path) === route);
    if (samples.length === 0) {
      throw new GateError(
        `route ${route} has parameters: give a real page of it with --path (such as ${route.replace(/:([A-Za-z]+)/g, '<a real $1>')}); ` +
          `make one through the API as a visitor would (play, then open the gift's redeem), or on a rehearsal's staging with ${STAGING_SAMPLE_COMMAND}, which prints the --path of each`,
      );
    }
    pages.push(...samples.map((path) => ({ route, path })));
  }
  return pages;
}

/** The module names a federation manifest exposes (`exposes: [{ name }]`). */
export function manifestExposes(manifest: unknown): string[] {
  const exposes = (manifest as { exposes?: unknown } | null)?.exposes;
  if (!Array.isArray(exposes)) return [];
  return exposes
    .map((entry) => (entry as { name?: unknown } | null)?.name)
    .filter((name): name is string => typeof name === 'string');
}

/** Why a manifest's exposes differ from the registry's, or undefined when they are the same names. */
export function exposesProblem(manifest: unknown, spec: RemoteSpec): string | undefined {
  const built = new Set(manifestExposes(manifest));
  const registered = new Set(Object.keys(spec.exposes));
  const missing = [...registered].filter((name) => !built.has(name));
  const extra = [...built].filter((name) => !registered.has(name));
  if (missing.length === 0 && extra.length === 0) return undefined;
  return [
    missing.length > 0 ? `missing from the build: ${missing.join(', ')}` : '',
    extra.length > 0 ? `not in the registry: ${extra.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join('; ');
}

/**
 * What the init script records in the page: the React renderers and how often a root committed,
 * CSP violations and the largest contentful paint.
 */
const PAGE_RECORDER = `(() => {
  const gate = { violations: [], lcp: undefined, commits: 0, takeLcp: undefined };
  Object.defineProperty(window, '__giftBoxGate', { value: gate });
  ${reactDevtoolsHook('gate.commits += 1;')}
  window.addEventListener('securitypolicyviolation', (event) => {
    gate.violations.push(event.effectiveDirective + ' refused ' + (event.blockedURI || 'inline') +
      (event.sourceFile ? ' from ' + event.sourceFile + ':' + event.lineNumber : ''));
  }, true);
  const record = (entries) => { for (const entry of entries) gate.lcp = entry.startTime; };
  const lcp = new PerformanceObserver((list) => record(list.getEntries()));
  lcp.observe({ type: 'largest-contentful-paint', buffered: true });
  // The observer's callback is a task of its own, which a busy renderer may not have run yet when
  // the gate reads the page: the gate takes the entries still waiting for it first.
  gate.takeLcp = () => { record(lcp.takeRecords()); return gate.lcp; };
})();`;

/**
 * A page has settled once React has committed a render and nothing on it is busy: no route loading
 * (the host's progress bar, `aria-busy`), so neither a remote's retries nor the reload guard's full
 * load (which leaves the route loading until the browser goes) are under way. A failing page
 * settles on its error page; read earlier, the gate would judge a page the visitor never ends on.
 */
function pageSettled(): boolean {
  const gate = (window as unknown as { __giftBoxGate?: { commits: number } }).__giftBoxGate;
  return (
    document.readyState === 'complete' &&
    gate !== undefined &&
    gate.commits > 0 &&
    document.querySelector('[role="progressbar"], [aria-busy="true"]') === null
  );
}

/**
 * Waits for the page to settle, in whichever document the tab then shows: a full load meanwhile
 * (the reload guard's) ends the wait in the old document, and it goes on in the new one.
 */
async function waitUntilSettled(tab: Page, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  // Polled from here: the host's CSP forbids the eval a string or polling waitForFunction needs.
  for (;;) {
    const settled = await tab.evaluate(pageSettled).catch(async () => {
      // The document went away (the page navigated): wait on in the one that follows.
      await tab.waitForLoadState('load', { timeout: Math.max(1, deadline - Date.now()) }).catch(() => undefined);
      return false;
    });
    if (settled) return;
    if (Date.now() >= deadline)
      throw new Error(`the page did not settle within ${timeoutMs / 1000} s: it was still loading`);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
  }
}

/** Whether the page has recorded its largest contentful paint (taking entries not yet delivered). */
function lcpRecorded(): boolean {
  const gate = (window as unknown as { __giftBoxGate?: { takeLcp: () => number | undefined } }).__giftBoxGate;
  return gate?.takeLcp() !== undefined;
}

/**
 * Waits, at most LCP_WAIT_MS, for the settled page's largest contentful paint: the browser makes
 * the entry only once the frame that painted it has been presented, which a busy machine delays.
 * A page that paints nothing contentful is then reported as such.
 */
async function waitForLcp(tab: Page): Promise<void> {
  const deadline = Date.now() + LCP_WAIT_MS;
  while (!(await tab.evaluate(lcpRecorded).catch(() => false)) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
  }
}

interface PageFindings {
  status?: number;
  build?: string;
  errorPage?: string;
  violations: string[];
  renderers: number;
  lcpMs?: number;
}

/** What the page shows and recorded, read once it has settled. */
function readPage(page: Page, remote: string, configId: string): Promise<Omit<PageFindings, 'status'>> {
  return page.evaluate(
    ({ remote, configId }) => {
      const gate = (
        window as unknown as { __giftBoxGate?: { violations: string[]; takeLcp: () => number | undefined } }
      ).__giftBoxGate;
      const lcp = gate?.takeLcp();
      const hook = (window as unknown as { __REACT_DEVTOOLS_GLOBAL_HOOK__?: { renderers?: Map<number, unknown> } })
        .__REACT_DEVTOOLS_GLOBAL_HOOK__;
      let build: string | undefined;
      try {
        const config = JSON.parse(document.getElementById(configId)?.textContent ?? '{}') as {
          remoteBuilds?: Record<string, string>;
        };
        build = config.remoteBuilds?.[remote];
      } catch {
        build = undefined;
      }
      const error = document.querySelector('.p-error, .p-kept-note');
      return {
        build,
        errorPage: error ? (error.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 200) : undefined,
        violations: gate?.violations ?? [],
        renderers: hook?.renderers?.size ?? 0,
        lcpMs: lcp === undefined ? undefined : Math.round(lcp),
      };
    },
    { remote, configId },
  );
}

/** Why a page fails the gate; empty when it passes. */
export function pageProblems(
  findings: PageFindings,
  expected: { buildId: string; lcpBudgetMs: number },
  consoleErrors: readonly string[],
  exceptions: readonly string[],
): string[] {
  const problems: string[] = [];
  if (findings.status !== 200) problems.push(`the page answered ${findings.status ?? 'nothing'}, not 200`);
  if (findings.build !== expected.buildId) {
    problems.push(
      findings.build === undefined
        ? 'the page names no build of this remote: the host did not honour the preview cookie (is REMOTE_<NAME>_PREVIEW_KEY set on the host, and the same key given here?)'
        : `the page runs build ${findings.build}, not ${expected.buildId}: the host did not honour the preview cookie`,
    );
  }
  if (findings.errorPage) problems.push(`an error page is shown: "${findings.errorPage}"`);
  problems.push(...findings.violations.map((violation) => `CSP violation: ${violation}`));
  // A console error's first line says what failed; its stack would break the gate's one line per check.
  problems.push(...consoleErrors.map((text) => `console error: ${text.split('\n')[0]?.trim() ?? ''}`));
  problems.push(...exceptions.map((text) => `uncaught exception: ${text}`));
  if (findings.renderers !== 1) problems.push(`${findings.renderers} React renderers registered, not one`);
  if (findings.lcpMs === undefined) problems.push('no largest contentful paint was recorded');
  else if (findings.lcpMs > expected.lcpBudgetMs)
    problems.push(`LCP ${findings.lcpMs} ms, over the budget of ${expected.lcpBudgetMs} ms`);
  // A problem met several times (a chunk retried) is said once, with how often.
  const counts = new Map<string, number>();
  for (const problem of problems) counts.set(problem, (counts.get(problem) ?? 0) + 1);
  return [...counts].map(([problem, count]) => (count > 1 ? `${problem} (${count} times)` : problem));
}

/**
 * A page's path as the gate prints it: each segment where its route has a parameter cut to its
 * first four characters (`/gifts/AbCd…`). A gift's or a redeem session's id works like a
 * password, and the gate's output ends up in CI logs.
 */
export function maskedPath(page: GatePage): string {
  const routeSegments = page.route.split('/');
  const [pathname = '', rest] = page.path.split(/(?=[?#])/);
  const masked = pathname
    .split('/')
    .map((segment, index) =>
      routeSegments[index]?.startsWith(':') && segment.length > 4 ? `${segment.slice(0, 4)}…` : segment,
    )
    .join('/');
  return rest === undefined ? masked : `${masked}?…`;
}

/** A failing page's screenshot: named by its route and its place in the run, never by an id. */
function screenshotName(page: GatePage, index: number): string {
  const slug = page.route.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'home';
  return `gate-${index + 1}-${slug}.png`;
}

/**
 * The preview cookie as the host's server reads it from a page at `host`: over https the
 * `__Host-` one, Secure, for that host only.
 */
export function previewCookieFor(host: string, token: string) {
  const https = new URL(host).protocol === 'https:';
  return https
    ? { name: previewCookieName(true), value: token, url: host, secure: true, sameSite: 'Lax' as const }
    : { name: previewCookieName(false), value: token, url: host, sameSite: 'Lax' as const };
}

/** Why the gate refuses to send a preview token to `host`, or undefined: over http, only to this machine. */
export function hostProblem(host: string): string | undefined {
  const url = new URL(host);
  if (url.protocol === 'https:' || LOOPBACK_HOSTNAMES.test(url.hostname)) return undefined;
  return `--host ${host} is not https: the preview cookie pins a build for whoever holds it, and would cross the network in clear`;
}

/** Visits one page in a fresh tab of the pinned context and checks it. */
async function checkPage(
  browser: Browser,
  options: GateOptions,
  cookie: string,
  page: GatePage,
  index: number,
  lcpBudgetMs: number,
): Promise<GateCheck> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    await context.addCookies([previewCookieFor(options.host, cookie)]);
    await context.addInitScript({ content: PAGE_RECORDER });
    const tab = await context.newPage();
    const consoleErrors: string[] = [];
    const exceptions: string[] = [];
    tab.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    tab.on('pageerror', (error) => exceptions.push(error.message));
    const url = new URL(page.path, options.host).href;
    let status: number | undefined;
    let findings: PageFindings;
    try {
      const response = await tab.goto(url, { waitUntil: 'load', timeout: PAGE_TIMEOUT_MS });
      status = response?.status();
      // The page as a visitor ends on: rendered, its route loaded or failed (after a reload, in the
      // document the browser then shows), then its data and first effects.
      await waitUntilSettled(tab, PAGE_TIMEOUT_MS);
      await tab.waitForLoadState('networkidle', { timeout: PAGE_TIMEOUT_MS }).catch(() => undefined);
      await waitForLcp(tab);
      findings = { status, ...(await readPage(tab, options.remote, RUNTIME_CONFIG_ELEMENT_ID)) };
    } catch (error) {
      findings = {
        status,
        violations: [],
        renderers: 0,
        errorPage: `the page did not load: ${(error as Error).message}`,
      };
    }
    const problems = pageProblems(findings, { buildId: options.buildId, lcpBudgetMs }, consoleErrors, exceptions);
    const name = `${maskedPath(page)}${page.path === page.route ? '' : ` (${page.route})`}`;
    if (problems.length === 0) {
      return { name, ok: true, detail: `build ${findings.build}, LCP ${findings.lcpMs} ms, one React, clean` };
    }
    mkdirSync(options.outDir, { recursive: true });
    const screenshot = join(options.outDir, screenshotName(page, index));
    await tab.screenshot({ path: screenshot, fullPage: true }).catch(() => undefined);
    return {
      name,
      ok: false,
      detail: problems.join('; '),
      screenshot: existsSync(screenshot) ? screenshot : undefined,
    };
  } finally {
    await context.close();
  }
}

/** Runs the gate; never changes the deployment folder. */
export async function runGate(options: GateOptions): Promise<GateResult> {
  const spec = remoteSpec(options.remote);
  if (!spec) throw new GateError(`there is no remote called ${options.remote}`);
  if (!isBuildId(options.buildId)) throw new GateError(`"${options.buildId}" is not a build id`);
  const insecure = hostProblem(options.host);
  if (insecure) throw new GateError(insecure);
  const pages = gatePages(spec, options.paths);
  const lcpBudgetMs = options.lcpBudgetMs ?? DEFAULT_LCP_BUDGET_MS;
  const now = options.now ?? Date.now();
  // Signed before anything else: a key the host would refuse is refused here too.
  const cookie = signPreview(options.key, {
    remote: options.remote,
    buildId: options.buildId,
    expires: Math.floor(now / 1000) + PREVIEW_TTL_S,
    audience: new URL(options.host).origin,
  });
  const checks: GateCheck[] = [];
  const record = (found: GateCheck) => {
    const check = { ...found, detail: maskIds(found.detail) };
    checks.push(check);
    options.onCheck?.(check);
    return check;
  };

  const target = resolve(options.target);
  const problem = isRevoked(await readDeployment(target), options.buildId)
    ? revokedMessage(target, options.buildId)
    : await ownCopyProblem(target, options.buildId);
  if (
    record({ name: 'staged copy', ok: !problem, detail: problem ?? `${buildFolder(options.buildId)}/ is whole` }).ok
  ) {
    let manifest: unknown;
    try {
      manifest = JSON.parse(await readFile(join(target, buildFolder(options.buildId), 'mf-manifest.json'), 'utf8'));
    } catch (error) {
      manifest = undefined;
      record({
        name: 'exposes',
        ok: false,
        detail: `its mf-manifest.json cannot be read: ${(error as Error).message}`,
      });
    }
    if (manifest !== undefined) {
      const differs = exposesProblem(manifest, spec);
      record({
        name: 'exposes',
        ok: !differs,
        detail: differs
          ? `the build's exposes differ from the registry's (${differs})`
          : `${manifestExposes(manifest).sort().join(', ')}, as the registry gives`,
      });
    }
  }
  if (checks.some((check) => !check.ok)) return { ok: false, checks };

  if (options.signal?.aborted) throw new GateStopped();
  const browser = options.browser ?? (await launchChromium(options.chromiumPath));
  const stop = () => void browser.close().catch(() => undefined);
  options.signal?.addEventListener('abort', stop, { once: true });
  try {
    for (const [index, page] of pages.entries()) {
      const check = await checkPage(browser, options, cookie, page, index, lcpBudgetMs).catch((error: unknown) => {
        if (options.signal?.aborted) return undefined;
        throw error;
      });
      // A page cut short by the stop says nothing of the build.
      if (!check || options.signal?.aborted) throw new GateStopped();
      record(check);
    }
  } finally {
    options.signal?.removeEventListener('abort', stop);
    if (!options.browser) await browser.close();
  }
  return { ok: checks.every((check) => check.ok), checks };
}

/**
 * Writes a run's verdict and checks (their details already masked) as `gate-<build id>.json` in
 * `outDir`, for a CI job to keep beside the screenshots; returns the file's path.
 */
export function writeGateResults(
  outDir: string,
  result: GateResult & { remote: string; buildId: string; host: string },
): string {
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, `gate-${result.buildId}.json`);
  writeFileSync(file, `${JSON.stringify({ ...result, at: new Date().toISOString() }, null, 2)}\n`);
  return file;
}

/** The remote a package folder holds: the registry's entry whose folder it is. */
export function remoteOfPackage(packageDir: string): string | undefined {
  const folder = resolve(packageDir).split(/[\\/]/).at(-1);
  return Object.entries(REMOTES).find(([, spec]) => spec.packageDir === folder)?.[0];
}

const USAGE = `Usage: PREVIEW_KEY=<the remote's preview key> npm run gate -w <remote> -- <target folder> <build id> --host <URL>
         [--path <sample path>]... [--lcp-budget-ms <ms>] [--out <folder>]

Checks a build staged in <target folder>/builds/<build id>/ (deploy --stage) before it is made
current: its copy is whole, its manifest exposes what the registry gives the remote, and each of
the remote's routes, opened on the production host in Chromium with this remote pinned to the
build for that browser only (a gb_preview cookie signed with PREVIEW_KEY), shows the build with no
error page, no CSP violation, no console error or uncaught exception, one React, and an LCP
within the budget. Exits 1 naming what failed, with a screenshot of each failing page; the
deployment folder is never changed.
  --host <URL>          the production host's origin, such as https://giftbox.example
  --path <path>         a real page of a route with parameters (/gifts/<a gift id>); repeat it
                        for each such route, or for several samples of one; make one through
                        the API as a visitor would, or on staging with ${STAGING_SAMPLE_COMMAND}
  --lcp-budget-ms <ms>  the largest LCP a page may have (default ${DEFAULT_LCP_BUDGET_MS})
  --out <folder>        where the results (gate-<build id>.json) and screenshots of failing
                        pages go (default: ${DEFAULT_GATE_OUT_DIR}, which git ignores)
  -h, --help            this text
The key comes from the environment (${PREVIEW_KEY_ENV}), never from a flag; ${CHROMIUM_PATH_ENV}
names another chromium than ${DEFAULT_CHROMIUM_PATH}. Chromium keeps its sandbox: run as root, the
gate starts it as GATE_CHROMIUM_USER (default ${DEFAULT_CHROMIUM_USER}). The host must be https, but
for one on this machine (localhost, 127.0.0.1, [::1]); the output and the screenshots' names show
no more than the first four characters of an id.`;

const OPTIONS = {
  host: { type: 'string' },
  path: { type: 'string', multiple: true },
  'lcp-budget-ms': { type: 'string' },
  out: { type: 'string' },
} as const;

export interface GateCliIo extends CliIo {
  env: Readonly<Record<string, string | undefined>>;
  /** SIGINT, SIGTERM: the gate stops, deciding nothing. */
  signal?: AbortSignal;
  /** A browser the caller keeps (tests share one); by default the gate launches its own. */
  browser?: Browser;
}

/** An http(s) origin from --host, or undefined. */
function hostOrigin(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/** What the gate's command line asks for; what it refuses throws UsageError. */
function gateRequest({ values, positionals }: CommandLine<typeof OPTIONS>, io: GateCliIo) {
  const remote = remoteOfPackage(io.packageDir);
  if (!remote) refuse(`${io.packageDir} is not a remote's package (run it with -w <remote>)`);
  if (positionals.length !== 2) refuse('give the target folder and the build id');
  const host = hostOrigin(values.host);
  if (!host) refuse(values.host ? `--host ${values.host} is not an http(s) URL` : '--host is missing');
  let lcpBudgetMs: number | undefined;
  if (values['lcp-budget-ms'] !== undefined) {
    if (!/^\d+$/.test(values['lcp-budget-ms']) || Number(values['lcp-budget-ms']) < 1)
      refuse(`--lcp-budget-ms must be a positive whole number, got "${values['lcp-budget-ms']}"`);
    lcpBudgetMs = Number(values['lcp-budget-ms']);
  }
  const key = io.env[PREVIEW_KEY_ENV];
  if (!key) refuse(`${PREVIEW_KEY_ENV} is not set: the gate signs its preview cookie with the remote's key`);
  const [target, buildId] = positionals as [string, string];
  const outDir = resolve(io.cwd, values.out ?? DEFAULT_GATE_OUT_DIR);
  return { remote, host, lcpBudgetMs, key, target, buildId, outDir, paths: values.path };
}

export const gateCommand = defineCommand({
  name: 'gate',
  summary: 'check a staged build on the production host before it is made current',
  usage: USAGE,
  options: OPTIONS,
  run: (line, io: GateCliIo) => runGateRequest(gateRequest(line, io), io),
});

/** Runs the gate the command line asked for, reporting each check; resolves to the exit status. */
async function runGateRequest(
  { remote, host, lcpBudgetMs, key, target, buildId, outDir, paths }: ReturnType<typeof gateRequest>,
  io: GateCliIo,
): Promise<number> {
  io.out(`gate: build ${buildId} of the ${remote} remote, staged in ${resolve(io.cwd, target)}, on ${host}`);
  try {
    const result = await runGate({
      target: resolve(io.cwd, target),
      remote,
      buildId,
      host,
      key,
      paths,
      lcpBudgetMs,
      outDir,
      signal: io.signal,
      browser: io.browser,
      onCheck: (check) => {
        const line = `gate: ${check.ok ? 'pass' : 'FAIL'} ${check.name}: ${check.detail}`;
        if (check.ok) io.out(line);
        else io.err(check.screenshot ? `${line}\n      screenshot: ${check.screenshot}` : line);
      },
    });
    io.out(`gate: results in ${writeGateResults(outDir, { remote, buildId, host, ...result })}`);
    if (result.ok) {
      io.out(`gate: build ${buildId} passed every check; nothing was changed in the deployment`);
      return 0;
    }
    const failed = result.checks.filter((check) => !check.ok).length;
    io.err(`gate: build ${buildId} failed ${failed} check${failed === 1 ? '' : 's'}; nothing current was changed`);
    return 1;
  } catch (error) {
    io.err(`gate: ${maskIds(error instanceof Error ? error.message : String(error))}`);
    return 1;
  }
}
