/**
 * The gate before promotion, as a remote team runs it (`npm run gate -w remote-content`), on the
 * production topology: nginx in front of the host's server, which honours a `gb_preview` cookie
 * only when it verifies under the content remote's preview key (REMOTE_CONTENT_PREVIEW_KEY). Four
 * builds are staged beside the current one (support/build-variants.ts): one whose pages throw, one
 * whose pages break the host's CSP, one whose manifest exposes other modules than the registry's,
 * and a good one. The gate refuses the first three, saying why with a screenshot, and passes the
 * last; none of them changes what visitors get. A visitor's own override, unsigned or signed with
 * another key, pins nothing.
 */
import { createHmac } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openSession } from '../support/browser';
import {
  npmCommand,
  REFUSED_IMAGE,
  THROWN_MESSAGE,
  variantBuild,
  DROPPED_EXPOSE,
  type BuildFault,
} from '../support/build-variants';
import { expect, test } from '../support/fixtures';
import { CONTENT_DIST, readLatest } from '../support/redeploy';
import { GATE_BROWSER_ENV, GATE_LCP_BUDGET_ARGS, LOG_DIR, TMP_DIR } from '../support/test-env';
import { sharedTopology } from '../support/shared-topology';
import { type Topology } from '../support/topology';

// The topology is servers of its own, on ports of the worker's block: the suite's wait idle for the next file.
test.use({ serverOptions: { only: [], leaveIdle: true } });

/** The cookie the host's server reads a preview pin from (shared/deployment's PREVIEW_COOKIE). */
const PREVIEW_COOKIE = 'gb_preview';
const KEY = 'gate-spec-preview-key-for-tests-only-0123456789';
const BUILDS_DIR = join(TMP_DIR, 'gate-builds');
const LOG = join(LOG_DIR, 'gate-spec-commands.log');
const FAULTS: readonly BuildFault[] = ['good', 'throws', 'csp', 'exposes'];

let topology: Topology;
let folder: string;
const ids: Record<string, string> = {};

test.beforeAll(async () => {
  test.setTimeout(240_000);
  const starting = sharedTopology({ hostEnv: { REMOTE_CONTENT_PREVIEW_KEY: KEY }, apiCount: 1 });
  // The builds are written while the topology's processes start.
  const dirs = FAULTS.map((fault) => {
    ids[fault] = `gate-${fault}-${Date.now().toString(36)}`;
    return variantBuild(CONTENT_DIST, join(BUILDS_DIR, fault), ids[fault], fault);
  });
  topology = await starting;
  folder = topology.remoteFolder('content');
  for (const dir of dirs) {
    const staged = await npmCommand(
      ['run', 'deploy', '-w', 'remote-content', '--', folder, '--stage', '--from', dir],
      {},
      LOG,
    );
    expect(staged.code, staged.output).toBe(0);
  }
});

/** `npm run gate -w remote-content -- <folder> <id> --host <origin>`, the key in PREVIEW_KEY. */
function gate(fault: BuildFault) {
  const out = join(BUILDS_DIR, `shots-${fault}`);
  return npmCommand(
    [
      'run',
      'gate',
      '-w',
      'remote-content',
      '--',
      folder,
      ids[fault] ?? '',
      '--host',
      topology.origin,
      '--out',
      out,
      ...GATE_LCP_BUDGET_ARGS,
    ],
    { PREVIEW_KEY: KEY, ...GATE_BROWSER_ENV },
    LOG,
  );
}

/** What visitors get: the deployment's file, which no gate run may change. */
const deployment = () => readFileSync(join(folder, 'builds', 'latest.json'), 'utf8');

/** The screenshot paths a failing gate printed, each checked to exist. */
function screenshots(output: string): string[] {
  const paths = [...output.matchAll(/screenshot: (\S+\.png)/g)].map((match) => match[1] ?? '');
  for (const path of paths) expect(existsSync(path), path).toBe(true);
  return paths;
}

test('the gate refuses a build whose pages throw, naming the exception, with a screenshot of each page; nothing current changes', async () => {
  const before = deployment();
  const { code, output } = await gate('throws');
  expect(code, output).toBe(1);
  expect(output).toContain('gate: pass exposes');
  for (const path of ['/', '/about', '/privacy-policy', '/terms']) {
    expect(output).toMatch(
      new RegExp(`gate: FAIL ${path.replace(/\//g, '\\/')}: .*uncaught exception: ${THROWN_MESSAGE}`),
    );
  }
  expect(screenshots(output)).toHaveLength(4);
  expect(output).toContain(`gate: build ${ids.throws} failed 4 checks; nothing current was changed`);
  expect(deployment()).toBe(before);
});

test('the gate refuses a build whose pages break the content security policy', async () => {
  const before = deployment();
  const { code, output } = await gate('csp');
  expect(code, output).toBe(1);
  expect(output).toContain(`CSP violation: img-src refused ${REFUSED_IMAGE}`);
  expect(screenshots(output).length).toBeGreaterThan(0);
  expect(deployment()).toBe(before);
});

test('the gate refuses a build whose manifest exposes other modules than the registry gives, before opening a page', async () => {
  const before = deployment();
  const { code, output } = await gate('exposes');
  expect(code, output).toBe(1);
  expect(output).toContain(
    `gate: FAIL exposes: the build's exposes differ from the registry's (missing from the build: ${DROPPED_EXPOSE})`,
  );
  expect(output).not.toMatch(/gate: (pass|FAIL) \//);
  expect(deployment()).toBe(before);
});

test('the gate passes a good build on every route of the remote, the host serving it to the gate’s browser only', async ({
  browser,
}) => {
  const before = deployment();
  const { code, output } = await gate('good');
  expect(code, output).toBe(0);
  for (const path of ['/', '/about', '/privacy-policy', '/terms']) {
    expect(output).toMatch(
      new RegExp(`gate: pass ${path.replace(/\//g, '\\/')}: build ${ids.good}, LCP \\d+ ms, one React, clean`),
    );
  }
  expect(deployment()).toBe(before);

  // A visitor who writes the cookie themselves pins nothing: unsigned, or signed with a key the
  // host does not hold for this remote, the page runs the stable build.
  const stable = readLatest(folder).id;
  const expires = Math.floor(Date.now() / 1000) + 600;
  const payload = `v2~content~${ids.good}~${expires}~${new URL(topology.origin).origin}`;
  const forged = `${payload}~${createHmac('sha256', 'a-key-the-host-does-not-hold-0123456789').update(payload).digest('base64url')}`;
  for (const token of [`${payload}~`, forged]) {
    const visitor = await openSession(browser, { baseURL: topology.origin });
    await visitor.context.addCookies([{ name: PREVIEW_COOKIE, value: token, url: topology.origin }]);
    const { page } = await visitor.newPage();
    expect((await page.goto('/about'))?.status()).toBe(200);
    const config = JSON.parse((await page.locator('#gift-box-config').textContent()) ?? '{}') as {
      remoteBuilds?: Record<string, string>;
    };
    expect(config.remoteBuilds?.content).toBe(stable);
    await visitor.close();
  }
});
