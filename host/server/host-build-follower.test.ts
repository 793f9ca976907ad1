/** @jest-environment node */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { listenPart, type PartServer } from 'server/part-server';
import { parseRuntimeConfig } from 'shared/runtime-config';
import { everyRemote } from 'shared/testing/runtime-config';
import { HostBuildFollower } from './host-build-follower';
import { HostBuildsError } from './host-build-choice';
import { createHostHandler } from './host-handler';

const NAVIGATE = { Accept: 'text/html' };
const config = parseRuntimeConfig({ remotes: everyRemote(), apiBaseUrl: 'https://api.example.com' });

let folder: string;
let warnings: string[];
let serving: PartServer | undefined;

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/**
 * Publishes a host build into the folder as `npm run deploy -w host` leaves it: its whole copy
 * under `_app/builds/{id}/` and its meta file first, then its files at the root, the deployment last.
 */
function publish(id: string, timestamp: number, codeVersion: string): void {
  const files: Record<string, string> = {
    [`main.${id}.js`]: `main of ${id}`,
    'index.html': `<!doctype html><html><head><title>${id}</title><script defer src="/main.${id}.js"></script></head><body><div id="root"></div></body></html>`,
    '_app/builds/latest.json': JSON.stringify({ id, timestamp, codeVersion }),
  };
  const meta = JSON.stringify({ id, timestamp, app: 'host', version: '0.1.0', codeVersion, files: Object.keys(files) });
  for (const [file, text] of Object.entries(files)) write(join(folder, '_app/builds', id, file), text);
  write(join(folder, '_app/builds', id, `_app/builds/meta/${id}.json`), meta);
  write(join(folder, `_app/builds/meta/${id}.json`), meta);
  for (const [file, text] of Object.entries(files)) write(join(folder, file), text);
}

/** The host's server on loopback as main.ts runs it: its pages and files, and /healthz, from the followed folder. */
async function serveFolder(codeVersion: string | undefined): Promise<{ base: string; follower: HostBuildFollower }> {
  const follower = await HostBuildFollower.open({
    folder,
    codeVersion,
    log: () => undefined,
    warn: (message) => warnings.push(message),
  });
  const handler = createHostHandler({
    root: () => follower.root(),
    otherFiles: folder,
    config,
    unservable: () => follower.unservable(),
  });
  serving = await listenPart('host', 0, handler, {
    buildFile: () => follower.buildFile(),
    healthDetails: () => ({ published: follower.published() }),
    listenHost: '127.0.0.1',
  });
  return { base: `http://127.0.0.1:${(serving.server.address() as AddressInfo).port}`, follower };
}

/** A page's status and the build whose template it was rendered from (the script it loads). */
async function page(base: string): Promise<{ status: number; build: string | undefined }> {
  const res = await fetch(`${base}/`, { headers: NAVIGATE });
  return { status: res.status, build: /src="\/main\.([^."]+)\.js"/.exec(await res.text())?.[1] };
}

const health = async (base: string): Promise<unknown> => (await fetch(`${base}/healthz`)).json();

let logSpy: jest.SpyInstance;
beforeAll(() => {
  logSpy = jest.spyOn(console, 'log').mockImplementation(() => undefined);
});
afterAll(() => logSpy.mockRestore());

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'host-builds-test-'));
  warnings = [];
});
afterEach(async () => {
  await serving?.shutdown();
  serving = undefined;
  rmSync(folder, { recursive: true, force: true });
});

describe("the host's server on its published folder", () => {
  it('serves a newer build of its own code once it reads the folder again, without a restart', async () => {
    publish('h1', 1000, 'code-a');
    const { base, follower } = await serveFolder('code-a');
    expect(await page(base)).toEqual({ status: 200, build: 'h1' });

    publish('h2', 2000, 'code-a');
    await follower.refresh();

    expect(await page(base)).toEqual({ status: 200, build: 'h2' });
    expect(await (await fetch(`${base}/main.h2.js`)).text()).toBe('main of h2');
    // The earlier build's files, for the pages still running it, from the folder's root.
    expect(await (await fetch(`${base}/main.h1.js`)).text()).toBe('main of h1');
    // The deploy commands' lock is no build's file.
    write(join(folder, '.deploy.lock'), '{"pid":1}');
    expect((await fetch(`${base}/.deploy.lock`)).status).toBe(404);
    expect(await health(base)).toEqual({
      status: 'ok',
      build: 'h2',
      published: { build: 'h2', codeVersion: 'code-a', served: true },
    });
    expect(warnings).toEqual([]);
  });

  it('keeps serving its own code’s build when one of other code is published, and says once that it needs a restart', async () => {
    publish('h1', 1000, 'code-a');
    const { base, follower } = await serveFolder('code-a');

    publish('h2', 2000, 'code-b');
    await follower.refresh();
    await follower.refresh();

    // The page is the one this server's code renders, whole: never the other code's template.
    expect(await page(base)).toEqual({ status: 200, build: 'h1' });
    expect(await (await fetch(`${base}/main.h1.js`)).text()).toBe('main of h1');
    expect(await health(base)).toEqual({
      status: 'ok',
      build: 'h1',
      published: { build: 'h2', codeVersion: 'code-b', served: false },
    });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /build h2, published in .* is of code version code-b and this server of code version code-a: restart/,
    );
    expect(warnings[0]).toContain('serving build h1');

    // Rolled back to a build of its own code: served again, nothing more to say.
    publish('h1', 1000, 'code-a');
    await follower.refresh();
    expect(await health(base)).toMatchObject({ build: 'h1', published: { build: 'h1', served: true } });
  });

  it('refuses to start on a folder that keeps no build of its code, naming both versions', async () => {
    publish('h1', 1000, 'code-b');
    const opening = HostBuildFollower.open({ folder, codeVersion: 'code-a' });
    await expect(opening).rejects.toThrow(HostBuildsError);
    await expect(opening).rejects.toThrow(
      /build h1, published in .*, is of code version code-b; this server is of code version code-a/,
    );
  });

  it('refuses to start on a folder nothing was published into', async () => {
    await expect(HostBuildFollower.open({ folder, codeVersion: 'code-a' })).rejects.toThrow(
      /_app\/builds\/latest.json is missing or names no build: publish the host there \(npm run deploy -w host/,
    );
  });

  it('serves a dist/ without copies from the folder itself, and a build of any code when run from source', async () => {
    write(
      join(folder, 'index.html'),
      '<!doctype html><html><head><script defer src="/main.dist.js"></script></head><body></body></html>',
    );
    write(join(folder, '_app/builds/latest.json'), JSON.stringify({ id: 'd1', timestamp: 1 }));
    const { base, follower } = await serveFolder(undefined);
    expect(follower.root()).toBe(folder);
    expect(await page(base)).toEqual({ status: 200, build: 'dist' });
  });

  it('answers 503 and says why once, never another code’s page, when its dist/ is rebuilt under it', async () => {
    /** A build as `npm run build -w host` leaves dist/: its files at the root, no copy (webpack cleans the rest). */
    const build = (id: string, codeVersion: string) => {
      rmSync(folder, { recursive: true, force: true });
      write(join(folder, `main.${id}.js`), `main of ${id}`);
      write(
        join(folder, 'index.html'),
        `<!doctype html><html><head><script defer src="/main.${id}.js"></script></head><body></body></html>`,
      );
      write(join(folder, '_app/builds/latest.json'), JSON.stringify({ id, timestamp: 1, codeVersion }));
    };
    build('d1', 'code-a');
    const { base, follower } = await serveFolder('code-a');
    expect(await page(base)).toEqual({ status: 200, build: 'd1' });

    build('d2', 'code-b');
    await follower.refresh();
    await follower.refresh();
    const res = await fetch(`${base}/about`, { headers: NAVIGATE });
    expect([res.status, await res.text()]).toEqual([
      503,
      "The host's build was replaced by a build of other code: its server must be restarted to serve it",
    ]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^build d2, of code version code-b, replaced build d1 in .*: this server, of code version code-a, has no build left to serve/,
    );
    expect(await health(base)).toMatchObject({ published: { build: 'd2', served: false } });

    // Rebuilt with its own code: served again.
    build('d3', 'code-a');
    await follower.refresh();
    expect(await page(base)).toEqual({ status: 200, build: 'd3' });
  });
});
