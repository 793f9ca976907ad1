/**
 * The gate against a real browser and a stand-in for the production host on loopback. The browser
 * is Debian's Chromium headless shell, which every test drives (testbed/chromium's
 * TEST_CHROMIUM_PATH), sandboxed as the gate runs it. The stand-in, like the host's server,
 * honours a `gb_preview` cookie only when it verifies under the remote's preview key
 * (server/preview-token), names the build it pinned in the page's inline configuration, and
 * serves that build's page. Each staged build's page does what its id says: a good one, one that
 * throws, one the page's CSP refuses, one that shows an error page, one that reloads once and then
 * shows one. The deployment folder is the one deploys write (`builds/{id}/`, its manifest's
 * exposes).
 */
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyPreview } from 'server/preview-token';
import { PREVIEW_COOKIE } from 'shared/deployment';
import { REMOTES } from 'shared/remotes';
import type { Browser } from 'playwright-core';
import {
  exposesProblem,
  gatePages,
  GateError,
  GateStopped,
  type GateResult,
  hostProblem,
  maskedPath,
  pageProblems,
  previewCookieFor,
  runGate,
  gateCommand,
} from './gate';
import { TEST_CHROMIUM_PATH } from 'testbed/chromium';
import { launchChromium } from './gate-chromium';
import { listFiles, makeBuild, read } from './testing/fake-remote-build';

/** A run launches chromium and loads a page per route: seconds, more on a busy machine. */
const BROWSER_RUN_MS = 60_000;
const KEY = 'gate-test-preview-key-of-at-least-32-chars';
const GIFT_PATH = '/gifts/AAAAAAAAAAAAAAAAAAAAAAAA';
/** How the gate prints it: an id works like a password. */
const MASKED_GIFT_PATH = '/gifts/AAAA…';

let root: string;
let target: string;
let server: Server;
let host: string;
/** One Chromium for the file's gate runs and commands (a stopped gate launches its own). */
let browser: Browser;
/** Paths the stand-in host was asked for. */
let visited: string[] = [];

/** What a page of each staged build does beside rendering its heading. */
const PAGES: Record<string, { body?: string; csp?: string; heading?: 'late' }> = {
  good: {},
  // Its heading painted 1.5 s after the page settled and went quiet: its largest contentful
  // paint is recorded after the gate would first read it.
  late: { heading: 'late' },
  throws: { body: `<script>setTimeout(() => { throw new Error('the canary broke'); });</script>` },
  csp: { csp: "img-src 'self'", body: '<img src="http://127.0.0.2:9/pixel.png" alt="">' },
  broken: { body: '<section class="p-error" role="alert"><h1>Internal Server Error</h1></section>' },
  // As the host's page whose remote fails: the route loads (retries, quiet for longer than a
  // network-idle wait), the reload guard reloads once, and the reloaded page shows the error.
  reloads: {
    // The host's policy: no eval, so the gate must read the page without it.
    csp: "script-src 'self' 'unsafe-inline'",
    body:
      `<div role="progressbar" aria-label="Loading page"></div><script>` +
      `if (sessionStorage.getItem('reloaded')) { document.querySelector('[role=progressbar]').outerHTML = ` +
      `'<section class="p-error" role="alert"><h1>This part is unavailable</h1></section>'; ` +
      `} else { sessionStorage.setItem('reloaded', '1'); setTimeout(() => location.reload(), 1500); }</script>`,
  },
};

function cookieOf(header: string | undefined, name: string): string | undefined {
  return header
    ?.split(';')
    .map((part) => part.trim().split('='))
    .find(([key]) => key === name)?.[1];
}

function page(build: string): { html: string; csp?: string } {
  const behaviour = PAGES[build] ?? {};
  const config = JSON.stringify({ remoteBuilds: { gifts: build } });
  return {
    csp: behaviour.csp,
    html:
      `<!doctype html><html><head><title>Gift Box</title>` +
      `<script type="application/json" id="gift-box-config">${config}</script></head>` +
      `<body>${behaviour.heading ? '' : '<h1>Play and win a gift</h1><p>Pick a box.</p>'}` +
      (behaviour.heading === 'late'
        ? `<script>setTimeout(() => document.body.insertAdjacentHTML('afterbegin', '<h1>Play and win a gift</h1>'), 1500);</script>`
        : '') +
      `${behaviour.body ?? ''}<script>const hook = window.__REACT_DEVTOOLS_GLOBAL_HOOK__; ` +
      `hook.onCommitFiberRoot(hook.inject({}), {});</script></body></html>`,
  };
}

/** A staged build in the deployment folder: its own copy, whose manifest exposes `exposes`. */
function stage(id: string, exposes = Object.keys(REMOTES.gifts.exposes)): void {
  const copy = makeBuild(join(target, 'builds', id), id, 1000);
  writeFileSync(join(copy, 'mf-manifest.json'), JSON.stringify({ id, exposes: exposes.map((name) => ({ name })) }));
}

beforeAll(async () => {
  server = createServer((request, response) => {
    visited.push(request.url ?? '');
    const pin = verifyPreview(
      cookieOf(request.headers.cookie, PREVIEW_COOKIE),
      { gifts: [KEY] },
      Math.floor(Date.now() / 1000),
      `http://${request.headers.host ?? ''}`,
    ).pin;
    const { html, csp } = page(pin?.buildId ?? 'stable');
    if (request.url === '/favicon.ico') return response.writeHead(204).end();
    response.writeHead(200, { 'content-type': 'text/html', ...(csp ? { 'content-security-policy': csp } : {}) });
    response.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium(TEST_CHROMIUM_PATH);
});
afterAll(async () => {
  await browser.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'gate-test-'));
  target = join(root, 'site');
  makeBuild(target, 'stable', 500);
  for (const id of Object.keys(PAGES)) stage(id);
  visited = [];
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Every file of the deployment folder with its text: what the gate must leave as it was. */
function snapshot(): Record<string, string> {
  return Object.fromEntries(listFiles(target).map((file) => [file, read(join(target, file))]));
}

const commandLine = (pid: string) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return [];
  }
};

/** The processes below `root` (this test's, so no other run's Chromium), from /proc. */
function descendantsOf(root: number): string[] {
  const parentOf = new Map<string, string>();
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      // The parent is the 4th field, after the command in parentheses.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      parentOf.set(pid, stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] ?? '');
    } catch {
      // Gone since the listing.
    }
  }
  const below = (pid: string): boolean => {
    const parent = parentOf.get(pid);
    return parent === String(root) || (parent !== undefined && parent !== '0' && below(parent));
  };
  return [...parentOf.keys()].filter(below);
}

const gate = (buildId: string, over: Partial<Parameters<typeof runGate>[0]> = {}) =>
  runGate({
    target,
    remote: 'gifts',
    buildId,
    host,
    key: KEY,
    paths: [GIFT_PATH],
    outDir: join(root, 'out'),
    browser,
    ...over,
  });

/** npm run gate as the deploy tools' entry runs it, typed in `root`, for the gifts remote. */
function io(env: Record<string, string | undefined> = { PREVIEW_KEY: KEY }) {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    io: {
      cwd: root,
      packageDir: join(root, 'remote-gifts'),
      env,
      browser,
      out: (line: string) => out.push(line),
      err: (line: string) => err.push(line),
    },
  };
}

describe('the gate in a browser', () => {
  it(
    'passes a good build on every route of the remote, the host pinning it for the gate’s browser only; npm run gate prints each check and exits 0',
    async () => {
      const before = snapshot();
      const good = io();
      expect(await gateCommand.main(['site', 'good', '--host', host, '--path', GIFT_PATH], good.io)).toBe(0);
      // The results go to a folder the repository ignores, and the gate says where.
      const results = join(root, '.gate-results', 'gate-good.json');
      expect(good.out).toContain(`gate: results in ${results}`);
      const written = readFileSync(results, 'utf8');
      const result = JSON.parse(written) as GateResult & { remote: string; buildId: string };
      expect(result).toMatchObject({ ok: true, remote: 'gifts', buildId: 'good' });
      expect(result.checks.map((check) => [check.name, check.ok])).toEqual([
        ['staged copy', true],
        ['exposes', true],
        ['/game', true],
        [`${MASKED_GIFT_PATH} (/gifts/:giftId)`, true],
      ]);
      expect(result.checks[2]?.detail).toMatch(/^build good, LCP \d+ ms, one React, clean$/);
      expect(good.out.filter((line) => line.startsWith('gate: pass '))).toHaveLength(4);
      expect(good.out.at(-1)).toBe('gate: build good passed every check; nothing was changed in the deployment');
      expect([...good.out, written].join('\n')).not.toContain(GIFT_PATH.slice('/gifts/'.length));
      expect(visited).toEqual(expect.arrayContaining(['/game', GIFT_PATH]));
      expect(snapshot()).toEqual(before);
    },
    BROWSER_RUN_MS,
  );

  it(
    'refuses a build whose page throws, with the exception and a screenshot of the page; npm run gate exits 1 with the reasons',
    async () => {
      const before = snapshot();
      const bad = io();
      expect(
        await gateCommand.main(['site', 'throws', '--host', host, '--path', GIFT_PATH, '--out', 'shots'], bad.io),
      ).toBe(1);
      expect(bad.out).toContain(`gate: results in ${join(root, 'shots', 'gate-throws.json')}`);
      const written = readFileSync(join(root, 'shots', 'gate-throws.json'), 'utf8');
      const result = JSON.parse(written) as GateResult & { buildId: string };
      expect(result).toMatchObject({ ok: false, buildId: 'throws' });
      const failed = result.checks.filter((check) => !check.ok);
      expect(failed.map((check) => check.name)).toEqual(['/game', `${MASKED_GIFT_PATH} (/gifts/:giftId)`]);
      expect(failed[0]?.detail).toContain('uncaught exception: the canary broke');
      expect(failed.map((check) => check.screenshot)).toEqual([
        join(root, 'shots', 'gate-1-game.png'),
        join(root, 'shots', 'gate-2-gifts-giftId.png'),
      ]);
      expect(existsSync(failed[0]?.screenshot ?? '')).toBe(true);
      expect(bad.err.join('\n')).toContain(`screenshot: ${join(root, 'shots', 'gate-1-game.png')}`);
      expect([...bad.err, written].join('\n')).not.toContain(GIFT_PATH.slice('/gifts/'.length));
      expect(bad.err.at(-1)).toBe('gate: build throws failed 2 checks; nothing current was changed');
      expect(snapshot()).toEqual(before);
    },
    BROWSER_RUN_MS,
  );

  it(
    'refuses a build whose page the content security policy refuses something',
    async () => {
      const result = await gate('csp');
      expect(result.ok).toBe(false);
      expect(result.checks[2]?.detail).toContain('CSP violation: img-src refused http://127.0.0.2:9/pixel.png');
    },
    BROWSER_RUN_MS,
  );

  it(
    'judges the page a visitor ends on: one that reloads after its part failed, then shows the error page',
    async () => {
      const result = await gate('reloads');
      expect(result.ok).toBe(false);
      expect(result.checks[2]?.detail).toContain('an error page is shown: "This part is unavailable"');
      expect(visited.filter((path) => path === '/game')).toHaveLength(2);
    },
    BROWSER_RUN_MS,
  );

  it(
    'judges a page by its largest contentful paint when the browser records it only after the page settled',
    async () => {
      const late = await gate('late');
      expect(late.checks[2]?.name).toBe('/game');
      expect(late.checks[2]?.detail).toMatch(/^build late, LCP \d+ ms, one React, clean$/);
    },
    BROWSER_RUN_MS,
  );

  it(
    'refuses a build that shows an error page',
    async () => {
      const result = await gate('broken');
      expect(result.checks[2]?.detail).toContain('an error page is shown: "Internal Server Error"');
    },
    BROWSER_RUN_MS,
  );

  it(
    'fails every page when the host does not honour the cookie: another key pins nothing',
    async () => {
      const result = await gate('good', { key: 'another-key-the-host-does-not-know-32+' });
      expect(result.ok).toBe(false);
      expect(result.checks[2]?.detail).toContain('the page runs build stable, not good: the host did not honour');
    },
    BROWSER_RUN_MS,
  );
});

describe('a gate stopped', () => {
  it(
    'by a signal mid-way decides nothing and closes its browser',
    async () => {
      const before = snapshot();
      const stop = new AbortController();
      const seen: string[] = [];
      const run = gate('good', {
        browser: undefined,
        signal: stop.signal,
        onCheck: (check) => {
          seen.push(check.name);
          if (check.name === '/game') stop.abort();
        },
      });
      await expect(run).rejects.toThrow(GateStopped);
      expect(seen).toEqual(['staged copy', 'exposes', '/game']);
      expect(visited).not.toContain(GIFT_PATH);
      expect(snapshot()).toEqual(before);
    },
    BROWSER_RUN_MS,
  );
});

describe('the gate before the browser', () => {
  it('refuses a build whose exposes differ from the registry’s, opening no page', async () => {
    stage('renamed', ['GamePage', 'PrizePage']);
    const result = await gate('renamed');
    expect(result.ok).toBe(false);
    expect(result.checks.at(-1)).toMatchObject({
      name: 'exposes',
      ok: false,
      detail:
        "the build's exposes differ from the registry's (missing from the build: GiftPage; not in the registry: PrizePage)",
    });
    expect(visited).toEqual([]);
  });

  it('refuses a revoked build, opening no page', async () => {
    stage('faulty');
    writeFileSync(
      join(target, 'builds/latest.json'),
      JSON.stringify({ id: 'stable', timestamp: 500, revoked: ['faulty'] }),
    );
    const result = await gate('faulty');
    expect(result.checks).toEqual([
      { name: 'staged copy', ok: false, detail: expect.stringContaining('build faulty is revoked') as unknown },
    ]);
    expect(visited).toEqual([]);
  });

  it('refuses a build that was not staged', async () => {
    const result = await gate('never-staged');
    expect(result.checks).toEqual([{ name: 'staged copy', ok: false, detail: 'builds/never-staged/ is missing' }]);
  });

  it('needs a sample path for a route with parameters, and refuses one that matches no route', () => {
    expect(() => gatePages(REMOTES.gifts)).toThrow(
      new GateError(
        'route /gifts/:giftId has parameters: give a real page of it with --path (such as /gifts/<a real giftId>); ' +
          "make one through the API as a visitor would (play, then open the gift's redeem), or on a rehearsal's " +
          'staging with npm run staging -- sample, which prints the --path of each',
      ),
    );
    expect(() => gatePages(REMOTES.gifts, ['/redeem/x'])).toThrow('--path /redeem/x matches no route of this remote');
    expect(() => gatePages(REMOTES.gifts, ['/redeem/BBBBBBBBBBBBBBBBBBBBBBBB'])).toThrow(
      '--path /redeem/BBBB… matches no route of this remote',
    );
    expect(gatePages(REMOTES.content).map((page) => page.path)).toEqual(['/', '/about', '/privacy-policy', '/terms']);
  });

  it('judges exposes by name both ways, and a page by every check', () => {
    expect(exposesProblem({ exposes: [{ name: 'GiftPage' }, { name: 'GamePage' }] }, REMOTES.gifts)).toBeUndefined();
    expect(exposesProblem({}, REMOTES.gifts)).toBe('missing from the build: GamePage, GiftPage');
    expect(
      pageProblems(
        { status: 200, build: 'b', violations: [], renderers: 2, lcpMs: 5000 },
        { buildId: 'b', lcpBudgetMs: 4000 },
        [],
        [],
      ),
    ).toEqual(['2 React renderers registered, not one', 'LCP 5000 ms, over the budget of 4000 ms']);
    expect(
      pageProblems(
        { status: 200, build: 'b', violations: [], renderers: 1, lcpMs: 100 },
        { buildId: 'b', lcpBudgetMs: 4000 },
        [],
        ['boom', 'boom', 'boom'],
      ),
    ).toEqual(['uncaught exception: boom (3 times)']);
    expect(
      pageProblems(
        { status: 200, build: 'b', violations: [], renderers: 1, lcpMs: 100 },
        { buildId: 'b', lcpBudgetMs: 4000 },
        ['RemoteLoadError: HomePage could not be loaded.\n    at loader (main.js:18:33)\n    at async main.js:16:90'],
        [],
      ),
    ).toEqual(['console error: RemoteLoadError: HomePage could not be loaded.']);
    expect(
      pageProblems(
        { status: 200, build: 'b', violations: [], renderers: 1 },
        { buildId: 'b', lcpBudgetMs: 4000 },
        [],
        [],
      ),
    ).toEqual(['no largest contentful paint was recorded']);
  });
});

describe('what the gate exposes', () => {
  it('prints a page’s ids cut to four characters, and keeps the rest of its path', () => {
    expect(maskedPath({ route: '/gifts/:giftId', path: GIFT_PATH })).toBe(MASKED_GIFT_PATH);
    expect(maskedPath({ route: '/gifts/:giftId', path: `${GIFT_PATH}?from=mail` })).toBe(`${MASKED_GIFT_PATH}?…`);
    expect(maskedPath({ route: '/about', path: '/about' })).toBe('/about');
  });

  it('sends its token over https, or over http only to this machine', async () => {
    expect(hostProblem('https://giftbox.example')).toBeUndefined();
    for (const local of ['http://127.0.0.1:3000', 'http://localhost:3000', 'http://[::1]:3000'])
      expect(hostProblem(local)).toBeUndefined();
    expect(hostProblem('http://giftbox.example')).toMatch(/is not https/);
    await expect(gate('good', { host: 'http://giftbox.example' })).rejects.toThrow(/is not https/);
  });

  it('sets the __Host- cookie, Secure, on an https host, and the plain one on this machine', () => {
    expect(previewCookieFor('https://giftbox.example', 't')).toMatchObject({
      name: '__Host-gb_preview',
      secure: true,
      url: 'https://giftbox.example',
    });
    expect(previewCookieFor(host, 't')).toMatchObject({ name: 'gb_preview', url: host });
  });

  it('runs Chromium with its sandbox, as a user other than root', () => {
    const chromiums = descendantsOf(process.pid).filter((pid) => commandLine(pid)[0]?.includes('chromium'));
    expect(chromiums.length).toBeGreaterThan(0);
    for (const pid of chromiums) {
      expect(commandLine(pid)).not.toContain('--no-sandbox');
      expect(statSync(`/proc/${pid}`).uid).not.toBe(0);
    }
    if (process.getuid?.() === 0) {
      const uid = String(statSync(`/proc/${chromiums[0] ?? ''}`).uid);
      expect(execFileSync('id', ['-un', uid], { encoding: 'utf8' }).trim()).toBe('nobody');
    }
  });
});

describe('npm run gate', () => {
  it('takes the key from PREVIEW_KEY only, and refuses bad input before anything runs', async () => {
    const noKey = io({});
    expect(await gateCommand.main(['site', 'good', '--host', host], noKey.io)).toBe(1);
    expect(noKey.err[0]).toContain('PREVIEW_KEY is not set');
    const keyFlag = io();
    expect(await gateCommand.main(['site', 'good', '--host', host, '--key', KEY], keyFlag.io)).toBe(1);
    expect(keyFlag.err[0]).toContain('unknown option');
    const noHost = io();
    expect(await gateCommand.main(['site', 'good'], noHost.io)).toBe(1);
    expect(noHost.err[0]).toContain('--host is missing');
    const noPath = io();
    expect(await gateCommand.main(['site', 'good', '--host', host], noPath.io)).toBe(1);
    expect(noPath.err[0]).toContain('route /gifts/:giftId has parameters');
    expect(noPath.err[0]).toContain('npm run staging -- sample');
    expect(visited).toEqual([]);
  });
});
