/**
 * @jest-environment node
 *
 * Each remote load ends in one event: the remote loader times it, the runtime plugin's hooks
 * (driven here in the order the federation runtime calls them) say where it stood, and a failed
 * script is fetched again from a real server to tell the browser's integrity check from the
 * network. The runtime's errors are worded as it words them.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ComponentType } from 'react';
import { telemetryEventSchema } from 'shared/api/contract';
import { parseRuntimeConfig } from 'shared/runtime-config';
import { everyRemote } from 'shared/testing/runtime-config';
import type { LoadEvent, TelemetryEvent } from 'shared/telemetry';
import { loadingPlugin, RemoteRefusedError } from '../federation/loading-plugin';
import { createRemoteLoader, type FederationRuntime } from '../federation/remote-loader';
import { createLoadPhases } from './load-phases';
import { createPageTelemetry } from './page-telemetry';
import * as integrityCheck from './integrity-check';
import { refusedForIntegrity } from './integrity-check';
import { createBuildAttribution } from './build-attribution';
import { REMOTE_NAMES } from 'shared/remotes';
import { RouteTable } from '../route-table/route-table';

const ENTRY = 'var gifts = {};';
const CHUNK = 'console.log("the game");';
const sri = (text: string) => `sha384-${createHash('sha384').update(text).digest('base64')}`;

let server: Server;
let base: string;
/** What the server answers, by path: `tampered/` serves other bytes than its build's digests, `gone/` nothing. */
function answer(path: string): { status: number; body: string } {
  const [, folder, file] = /^\/(\w+)\/(.+)$/.exec(path) ?? [];
  if (file === 'mf-manifest.json') {
    const manifest = {
      name: 'gifts',
      buildId: `g-${folder}`,
      metaData: {
        name: 'gifts',
        publicPath: 'auto',
        remoteEntry: { name: 'remoteEntry.js', path: '', type: 'global' },
      },
      exposes: [],
      shared: [],
      integrity: { 'remoteEntry.js': sri(ENTRY), '7.chunk.js': sri(CHUNK) },
    };
    return folder === 'down' ? { status: 503, body: 'busy' } : { status: 200, body: JSON.stringify(manifest) };
  }
  if (folder === 'gone') return { status: 404, body: 'not here' };
  const body = file === 'remoteEntry.js' ? ENTRY : CHUNK;
  return { status: 200, body: folder === 'tampered' ? `${body}/* changed */` : body };
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const { status, body } = answer(req.url ?? '');
    res.statusCode = status;
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** The federation runtime's wording: `[ Federation Runtime ]: … #RUNTIME-008 … Original Error Message:\n …`. */
function runtimeError(code: string, description: string, original: unknown): Error {
  return new Error(
    `[ Federation Runtime ]: ${description} #${code}\nargs: {}\nView the docs to see how to solve: https://module-federation.io/guide/troubleshooting/runtime#${code.toLowerCase()}\nOriginal Error Message:\n ${String(original)}`,
  );
}

const scriptNetworkError = (url: string) =>
  runtimeError(
    'RUNTIME-008',
    'Failed to load script resources.',
    `ScriptNetworkError: Failed to load script "${url}" - the script URL is unreachable or the server returned an error (network failure, 404, CORS, etc.)`,
  );

const chunkLoadError = (url: string, type = 'error') =>
  Object.assign(new Error(`Loading chunk 7 failed.\n(${type}: ${url})`), {
    name: 'ChunkLoadError',
    type,
    request: url,
  });

function Page() {
  return null;
}

type Step = 'entry' | 'chunk' | 'expose';
/** What an attempt meets: an error at a step, a step that never ends, or nothing (the page). */
type Attempt = { at: Step; error: (folder: string) => unknown } | { hangsAt: Step } | { exports: unknown } | 'ok';

/**
 * The loader, the plugins and the telemetry as the app puts them together, over a runtime that
 * fetches the remote's manifest from `folder` through the loading plugin and calls the hooks as
 * the federation runtime does, then meets `attempts` in turn (the last one again and again).
 */
function setUp(
  folder: string,
  attempts: Attempt[],
  remoteTimeoutMs = 5_000,
  /** Each retry waits until the requests made again have their answers, as the loader's pauses outlast them. */
  { answersBeforeRetry = false } = {},
) {
  const builds = createBuildAttribution('host-b7', REMOTE_NAMES);
  const phases = createLoadPhases();
  const plugin = phases.plugin as unknown as Record<string, (args: Record<string, unknown>) => unknown>;
  const loading = loadingPlugin({ timeoutMs: 5_000, allowedOrigins: [base], requireIntegrity: true, builds });
  const fetchHook = loading.fetch as (
    url: string,
    init: RequestInit,
    remoteInfo: { name: string },
  ) => Promise<Response>;
  const manifestUrl = `${base}/${folder}/mf-manifest.json`;
  let clock = 1_000;
  let attempt = 0;
  let hang: () => void = () => undefined;
  /** Resolves once an attempt reaches the step it hangs at. */
  const hung = new Promise<void>((resolve) => {
    hang = resolve;
  });

  const runtime: FederationRuntime = {
    registerRemotes: () => undefined,
    preloadRemote: async () => undefined,
    async loadRemote<T>(id: string) {
      if (answersBeforeRetry && attempt > 0) await answered();
      const meets = attempts[Math.min(attempt, attempts.length - 1)] ?? 'ok';
      attempt += 1;
      clock += 150;
      const fails = (step: Step) => {
        if (typeof meets === 'object' && 'at' in meets && meets.at === step) throw meets.error(folder);
        if (typeof meets === 'object' && 'hangsAt' in meets && meets.hangsAt === step) {
          hang();
          return new Promise<never>(() => undefined);
        }
        return undefined;
      };
      plugin.beforeRequest?.({ id });
      try {
        await fetchHook(manifestUrl, {}, { name: 'gifts' });
      } catch (error) {
        throw runtimeError('RUNTIME-003', 'Failed to get manifest.', error);
      }
      plugin.afterLoadSnapshot?.({ id, moduleInfo: { name: 'gifts' } });
      await fails('entry');
      plugin.beforeGetExpose?.({ id, expose: './GamePage' });
      try {
        await fails('chunk');
      } catch (error) {
        plugin.afterGetExpose?.({ id, expose: './GamePage', error });
        throw error;
      }
      plugin.afterGetExpose?.({ id, expose: './GamePage' });
      await fails('expose');
      return (typeof meets === 'object' && 'exports' in meets ? meets.exports : { default: Page }) as T;
    },
  };

  const events: TelemetryEvent[] = [];
  /** Each event as it was when recorded: what a page reloaded at once would send. */
  const asRecorded: TelemetryEvent[] = [];
  /**
   * The page's checks of a failed script's bytes, each to its answer (its request, then the digest
   * of what came, which is work of its own): to tell its integrity from the network.
   */
  const checks: Promise<unknown>[] = [];
  /** Once every check asked so far has its answer, and the page has taken it. */
  async function answered(): Promise<void> {
    while (checks.length > 0) {
      await Promise.allSettled(checks.splice(0));
      // The page takes an answer in promise callbacks, all run before the next turn of the loop.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  let recorded: (event: TelemetryEvent) => void = () => undefined;
  const telemetry = createPageTelemetry({
    record: (event) => {
      events.push(event);
      asRecorded.push({ ...event });
      recorded(event);
    },
    builds,
    routes: RouteTable.registry(),
    phases,
    fetch,
    // At once, not as a chunk of its own, and each check kept from its start: the next attempt or
    // the load's end that the test waits on then waits for its answer.
    integrityCheck: () =>
      Promise.resolve({
        refusedForIntegrity: (...args: Parameters<typeof refusedForIntegrity>) => {
          const answer = integrityCheck.refusedForIntegrity(...args);
          checks.push(answer);
          return answer;
        },
      }),
  });
  const loader = createRemoteLoader({
    config: parseRuntimeConfig({ remotes: everyRemote(), apiBaseUrl: 'http://localhost:3004', remoteTimeoutMs }),
    runtime,
    retryDelaysMs: [1, 1],
    log: () => undefined,
    onLoadEnd: telemetry.loadEnded,
    onLoadRetry: telemetry.loadRetried,
    now: () => clock,
  });

  /** Loads the game page and resolves with the one event its load ends in, as it would be sent. */
  async function load(): Promise<{ event: LoadEvent; page: ComponentType | undefined }> {
    const event = new Promise<TelemetryEvent>((resolve) => {
      recorded = resolve;
    });
    const page = await loader.load('gifts', 'GamePage').catch(() => undefined);
    const first = await event;
    // The event as it waits in the queue, once every check it asked for has its answer.
    await answered();
    expect(events).toEqual([first]);
    // As the API's contract takes it.
    expect(telemetryEventSchema.parse(first)).toEqual(first);
    return { event: first as LoadEvent, page };
  }
  return { load, hung, asRecorded };
}

describe('remote load events', () => {
  it('reports a load that worked at once, with its build and how long it took', async () => {
    const { load } = setUp('v41', ['ok']);
    const { event, page } = await load();
    expect(page).toBe(Page);
    expect(event).toEqual({ kind: 'load', remote: 'gifts', build: 'g-v41', phase: 'expose', outcome: 'ok', ms: 150 });
  });

  it('reports one that worked after a retry as recovered, timed from its start', async () => {
    const { load } = setUp('v41', [
      { at: 'chunk', error: (folder) => chunkLoadError(`${base}/${folder}/7.chunk.js`) },
      'ok',
    ]);
    expect((await load()).event).toMatchObject({ phase: 'expose', outcome: 'recovered', ms: 300 });
  });

  it('reports a manifest that could not be had as failed at the manifest', async () => {
    const { load } = setUp('down', ['ok']);
    expect((await load()).event).toEqual({
      kind: 'load',
      remote: 'gifts',
      build: 'unknown',
      phase: 'manifest',
      outcome: 'failed',
      ms: 450,
    });
  });

  it('reports a script the host refused for the integrity it lacks at the entry, and one outside the allowed origins as origin', async () => {
    const noIntegrity = setUp('v41', [
      {
        at: 'entry',
        error: (folder) =>
          runtimeError(
            'RUNTIME-008',
            'Failed to load script resources.',
            new RemoteRefusedError(`${base}/${folder}/remoteEntry.js`, 'no manifest read gives its integrity'),
          ),
      },
    ]);
    expect((await noIntegrity.load()).event).toMatchObject({ build: 'g-v41', phase: 'entry', outcome: 'integrity' });

    const elsewhere = setUp('v41', [
      {
        at: 'chunk',
        error: () =>
          new RemoteRefusedError(
            'https://cdn.evil.example/7.js',
            'https://cdn.evil.example is not an allowed remote origin',
          ),
      },
    ]);
    expect((await elsewhere.load()).event).toMatchObject({ phase: 'chunk', outcome: 'origin' });
  });

  it('tells an entry the browser refused for its bytes from one the network lost', async () => {
    const tampered = setUp('tampered', [
      { at: 'entry', error: (folder) => scriptNetworkError(`${base}/${folder}/remoteEntry.js`) },
    ]);
    expect((await tampered.load()).event).toMatchObject({ build: 'g-tampered', phase: 'entry', outcome: 'integrity' });

    const gone = setUp('gone', [
      { at: 'entry', error: (folder) => scriptNetworkError(`${base}/${folder}/remoteEntry.js`) },
    ]);
    expect((await gone.load()).event).toMatchObject({ phase: 'entry', outcome: 'failed' });

    // A blip: the same script is fine when asked again.
    const blip = setUp('v41', [
      { at: 'entry', error: (folder) => scriptNetworkError(`${base}/${folder}/remoteEntry.js`) },
    ]);
    expect((await blip.load()).event).toMatchObject({ phase: 'entry', outcome: 'failed' });
  });

  it('knows the entry was refused for its bytes when the retries are over, so a page reloaded at once still says so', async () => {
    const tampered = setUp(
      'tampered',
      [{ at: 'entry', error: (folder) => scriptNetworkError(`${base}/${folder}/remoteEntry.js`) }],
      5_000,
      { answersBeforeRetry: true },
    );
    expect((await tampered.load()).event).toMatchObject({ phase: 'entry', outcome: 'integrity' });
    expect(tampered.asRecorded).toEqual([expect.objectContaining({ phase: 'entry', outcome: 'integrity' })]);
  });

  it("tells a chunk the browser refused for its bytes, as the chunk's failure", async () => {
    const { load } = setUp('tampered', [
      { at: 'chunk', error: (folder) => chunkLoadError(`${base}/${folder}/7.chunk.js`) },
    ]);
    expect((await load()).event).toMatchObject({ phase: 'chunk', outcome: 'integrity' });
  });

  it('reports a load that took too long as timed out, where it stood', async () => {
    // The loader's clock is faked: the load runs out of time once it hangs, never before.
    jest.useFakeTimers();
    try {
      const { load, hung } = setUp('v41', [{ hangsAt: 'chunk' }], 5_000);
      const loading = load();
      await hung;
      jest.advanceTimersByTime(5_000);
      expect((await loading).event).toMatchObject({ phase: 'chunk', outcome: 'timeout' });
    } finally {
      jest.useRealTimers();
    }
  });

  it('reports a module that is no page as failed at the expose, not retried', async () => {
    const { load } = setUp('v41', [{ exports: { notAPage: true } }]);
    expect((await load()).event).toMatchObject({ phase: 'expose', outcome: 'failed', ms: 150 });
  });
});

describe('asking again for a failed script', () => {
  /** Fetches through the real server, counting the requests. */
  function countingFetch(): { fetchFn: typeof fetch; asked: () => number } {
    let count = 0;
    return {
      fetchFn: (...args) => {
        count += 1;
        return fetch(...args);
      },
      asked: () => count,
    };
  }

  it('asks once: a server that fails is no refusal, bytes that differ from the digest are', async () => {
    const failing = countingFetch();
    expect(await refusedForIntegrity(`${base}/gone/remoteEntry.js`, sri(ENTRY), failing.fetchFn)).toBe(false);
    expect(failing.asked()).toBe(1);
    const changed = countingFetch();
    expect(await refusedForIntegrity(`${base}/tampered/remoteEntry.js`, sri(ENTRY), changed.fetchFn)).toBe(true);
    expect(changed.asked()).toBe(1);
    expect(await refusedForIntegrity(`${base}/v41/remoteEntry.js`, sri(ENTRY), fetch)).toBe(false);
  });

  it('without WebCrypto (a page outside a secure context), has the browser check the bytes', async () => {
    jest.replaceProperty(globalThis, 'crypto', undefined as unknown as Crypto);
    try {
      const changed = countingFetch();
      expect(await refusedForIntegrity(`${base}/tampered/remoteEntry.js`, sri(ENTRY), changed.fetchFn)).toBe(true);
      expect(changed.asked()).toBe(2);
      expect(await refusedForIntegrity(`${base}/v41/remoteEntry.js`, sri(ENTRY), fetch)).toBe(false);
    } finally {
      jest.restoreAllMocks();
    }
  });
});
