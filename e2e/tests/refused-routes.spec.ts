/**
 * What a remote publishes is input from another team (docs/decisions/0045): a remote added to the
 * running site that claims the home page, another remote's page (`/game`) and a page in a layout
 * the host does not have gets none of them. Each refusal is one line of the host's server's log
 * naming the remote, the route and why; the rest of the site keeps its pages.
 *
 * The stand-in remote is a folder nginx serves at `/remotes/rogue/`: the content remote's
 * deployed build with its manifest's routes crafted, as a compromised or careless team's deploy
 * would serve it.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitForRenderedPage, visit } from '../support/app-page';
import { openSession } from '../support/browser';
import { expect, test } from '../support/fixtures';
import { httpGetPage } from '../support/http';
import { hostLogMarks, logMessagesSince, restartInTurn } from '../support/reconfigure';
import { sharedTopology } from '../support/shared-topology';
import { type Topology } from '../support/topology';

const ROGUE = 'rogue';
/** The one path it is granted, which it publishes in a layout the host does not have. */
const GRANTED = '/rogue';
/** What the stand-in publishes: paths other remotes hold, and its granted path in an unknown layout. */
const CRAFTED_ROUTES = {
  version: 1,
  remote: ROGUE,
  exposes: {
    HomePage: { routes: [{ path: '/', layout: 'default', title: 'Home' }] },
    AboutPage: { routes: [{ path: '/game', layout: 'default', title: 'Play' }] },
    TermsPage: { routes: [{ path: GRANTED, layout: 'sidebar', title: 'Rogue' }] },
  },
};
/** What the host's server logs for each route it leaves out (shared/composition's refusalText). */
const REFUSALS = [
  /^The rogue remote's route \/ \(HomePage\) is left out: the path \/ is not granted to rogue/,
  /^The rogue remote's route \/game \(AboutPage\) is left out: the path \/game is not granted to rogue/,
  /^The rogue remote's route \/rogue \(TermsPage\) is left out: .*layout "sidebar"/,
];

// The topology is servers of its own, on ports of the worker's block: the suite's wait idle for the next file.
test.use({ serverOptions: { only: [], leaveIdle: true } });

let topology: Topology;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  topology = await sharedTopology({ apiCount: 1 });
});

/** The content remote's deployed build, served as the rogue remote's with the crafted routes. */
function deployStandIn(): void {
  const folder = topology.remoteFolder(ROGUE);
  cpSync(topology.remoteFolder('content'), folder, { recursive: true });
  const file = join(folder, 'mf-manifest.json');
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  writeFileSync(file, JSON.stringify({ ...manifest, routes: CRAFTED_ROUTES }));
}

test("a remote claiming /, another remote's /game and an unknown layout gets none of them; the site keeps its pages", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  deployStandIn();
  const marks = hostLogMarks(topology);
  await restartInTurn(topology, {
    ADDED_REMOTES: ROGUE,
    REMOTE_ROGUE_URL: `${topology.origin}/remotes/${ROGUE}/mf-manifest.json`,
    REMOTE_ROGUE_PATHS: GRANTED,
  });
  // Logged once the host's server has read the stand-in's manifest, each refusal on a line of its own.
  await expect
    .poll(() => REFUSALS.map((refusal) => logMessagesSince(marks).filter((msg) => refusal.test(msg)).length), {
      timeout: 20_000,
    })
    .toEqual([1, 1, 1]);

  expect((await httpGetPage(`${topology.origin}${GRANTED}`)).status).toBe(404);
  // The pages the stand-in claims are their remotes' as before, prerendered by the host's server.
  const [home, game] = await Promise.all(['/', '/game'].map((path) => httpGetPage(`${topology.origin}${path}`)));
  expect([home?.status, game?.status]).toEqual([200, 200]);
  expect(home?.body).toContain('<div id="root" data-prerendered="HomePage">');
  expect(game?.body).toContain('<div id="root" data-prerendered="GamePage">');
  const config = /<script[^>]* id="gift-box-config"[^>]*>([^<]*)<\/script>/.exec(home?.body ?? '')?.[1] ?? '{}';
  const { routes } = JSON.parse(config) as { routes?: { path: string; remote: string }[] };
  expect(routes?.filter((route) => ['/', '/game', GRANTED].includes(route.path))).toEqual([
    expect.objectContaining({ path: '/', remote: 'content' }),
    expect.objectContaining({ path: '/game', remote: 'gifts' }),
  ]);

  // In a browser, / and /game are still the content and gifts remotes' pages.
  const session = await openSession(browser, { baseURL: topology.origin });
  const { page, watch } = await session.newPage();
  const remotesAsked = new Set<string>();
  page.on('request', (request) => {
    const remote = /\/remotes\/([a-z0-9]+)\//.exec(new URL(request.url()).pathname)?.[1];
    if (remote) remotesAsked.add(remote);
  });
  expect(await visit(page, '/')).toBe(200);
  expect((await waitForRenderedPage(page)).heading).not.toBe('');
  expect(await visit(page, '/game')).toBe(200);
  await page.getByRole('button', { name: 'Box 2' }).waitFor();
  expect(remotesAsked.has(ROGUE)).toBe(false);
  expect(watch.problems()).toEqual([]);
  await session.close();
});
