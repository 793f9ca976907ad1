/**
 * Last known good with the real federation runtime and the host's loading plugin: a remote whose
 * entry ran and whose chunks are then gone (the current build's files deleted mid-session) is
 * switched to its fallback build, whose entry is loaded with the fallback manifest's own integrity
 * and runs as a fresh container: nothing of the broken build's container, runtime instance,
 * shared modules or pushed chunks is left for it to pick up.
 */
import { createInstance, type ModuleFederation } from '@module-federation/enhanced/runtime';
import { chunkArrayName } from 'shared/remotes';
import { parseRuntimeConfig } from 'shared/runtime-config';
import { everyRemote } from 'shared/testing/runtime-config';
import { loadingPlugin } from './loading-plugin';
import { createRemoteLoader } from './remote-loader';
import { BROKEN_BUILDS_KEY } from './tab-memory';

const GIFTS = 'http://localhost:3001';
const BROKEN = `${GIFTS}/builds/c2/mf-manifest.json`;
const FALLBACK = `${GIFTS}/builds/s1/mf-manifest.json`;
const INTEGRITY = { c2: `sha384-${'C'.repeat(64)}`, s1: `sha384-${'S'.repeat(64)}` };
/** A remote's runtime instance takes the host's id on the page (the runtime looks for `gifts:0.1.0`). */
const INSTANCE_ID = 'host:0.1.0';

function manifestOf(build: 'c2' | 's1') {
  return {
    id: 'gifts',
    name: 'gifts',
    buildId: build,
    metaData: {
      name: 'gifts',
      type: 'app',
      buildInfo: { buildVersion: '0.1.0', buildName: 'remote-gifts' },
      remoteEntry: { name: 'remoteEntry.js', path: '', type: 'global' },
      types: { path: '', name: '', zip: '', api: '' },
      globalName: 'gifts',
      pluginVersion: '2.9.2',
      publicPath: 'auto',
    },
    remotes: [],
    shared: [],
    exposes: [],
    integrity: { 'remoteEntry.js': INTEGRITY[build] },
  };
}

const config = parseRuntimeConfig({
  remotes: { ...everyRemote(), gifts: BROKEN },
  remoteBuilds: { gifts: 'c2' },
  remoteFallbacks: { gifts: FALLBACK },
  apiBaseUrl: 'http://localhost:3004',
});

function chunkGone(chunk: string): Error {
  return Object.assign(new Error(`Loading chunk ${chunk} failed.\n(missing: ${GIFTS}/builds/c2/${chunk}.js)`), {
    name: 'ChunkLoadError',
  });
}

type Globals = Record<string, unknown> & { __FEDERATION__: { __INSTANCES__: ModuleFederation[] } };
const globals = globalThis as unknown as Globals;

function FallbackPage() {
  return null;
}

/**
 * What a remote's `remoteEntry.js` does when it runs, as webpack builds it: it finds or creates
 * its federation runtime instance (by id), sets its global container, and takes over the chunks
 * already pushed onto its chunk array. The broken build's chunks are gone.
 */
function runEntry(build: 'c2' | 's1', seen: { reusedInstance: boolean; chunksFound: unknown[] }) {
  const existing = globals.__FEDERATION__.__INSTANCES__.find((instance) => instance.name === 'gifts');
  if (existing) seen.reusedInstance = true;
  const instance =
    existing ??
    createInstance({
      id: INSTANCE_ID,
      name: 'gifts',
      remotes: [],
      shared: {
        [`only-in-${build}`]: {
          version: '1.0.0',
          get: () => Promise.resolve(() => ({})),
          shareConfig: { requiredVersion: false },
        },
        // The remote's own copy of a library the host does not provide, in a chunk of its build.
        'remote-copy': {
          version: '2.0.0',
          get: () => (build === 'c2' ? Promise.reject(chunkGone('shared-copies')) : Promise.resolve(() => ({}))),
          shareConfig: { singleton: true, requiredVersion: false },
        },
      },
    });
  const chunks = (globals[chunkArrayName('gifts')] ??= []) as unknown[];
  seen.chunksFound = [...chunks];
  // The page it ran for loaded a chunk of this build.
  chunks.push([[`${build}-home`], {}]);
  globals.gifts = {
    init(shareScope: Record<string, never>) {
      instance.initShareScopeMap('default', shareScope);
      return instance.initializeSharing('default');
    },
    // A page's module first loads the shared modules it uses, then its own chunks.
    get: async () => {
      await instance.loadShare('remote-copy');
      if (build === 's1') return () => ({ default: FallbackPage });
      throw chunkGone('7');
    },
  };
}

afterEach(() => {
  jest.restoreAllMocks();
  document.head.replaceChildren();
  sessionStorage.clear();
});

it("switches a remote whose chunks are gone to its fallback build, with that build's integrity, in a fresh container", async () => {
  jest
    .spyOn(window, 'fetch')
    .mockImplementation(async (url) =>
      Response.json(String(url).startsWith(FALLBACK) ? manifestOf('s1') : manifestOf('c2')),
    );
  const seen = { reusedInstance: false, chunksFound: [] as unknown[] };
  const scripts: { src: string; integrity: string | null }[] = [];
  // The browser runs each entry script the runtime adds, then fires its load event.
  const observer = new MutationObserver((records) => {
    for (const node of records.flatMap((record) => [...record.addedNodes])) {
      if (!(node instanceof HTMLScriptElement)) continue;
      scripts.push({ src: node.src, integrity: node.getAttribute('integrity') });
      runEntry(node.src.includes('/builds/s1/') ? 's1' : 'c2', seen);
      node.dispatchEvent(new Event('load'));
    }
  });
  observer.observe(document.head, { childList: true });
  const held = {
    version: '19.3.1',
    lib: () => ({}),
    shareConfig: { singleton: true, requiredVersion: false as const },
  };
  const runtime = createInstance({
    name: 'host',
    remotes: [],
    shared: { react: held },
    plugins: [loadingPlugin({ timeoutMs: 4_000, allowedOrigins: [GIFTS], requireIntegrity: true })],
  });
  const onFallback = jest.fn();
  const onRemoteLoaded = jest.fn();
  const loader = createRemoteLoader({
    config,
    runtime,
    retryDelaysMs: [1],
    log: jest.fn(),
    onFallback,
    onRemoteLoaded,
  });

  try {
    await expect(loader.load('gifts', 'GamePage')).resolves.toBe(FallbackPage);
  } finally {
    observer.disconnect();
  }

  expect(scripts).toEqual([
    { src: `${GIFTS}/builds/c2/remoteEntry.js`, integrity: INTEGRITY.c2 },
    { src: `${GIFTS}/builds/s1/remoteEntry.js`, integrity: INTEGRITY.s1 },
  ]);
  expect(onFallback).toHaveBeenCalledWith(expect.objectContaining({ remote: 'gifts', id: 'gifts/GamePage', to: 's1' }));
  expect(onRemoteLoaded).toHaveBeenCalledTimes(1);
  expect(onRemoteLoaded).toHaveBeenCalledWith('gifts', FALLBACK, 's1');
  // The fallback's entry made its own runtime instance, found none of the broken build's chunks,
  // and is the remote's container now.
  expect(seen).toEqual({ reusedInstance: false, chunksFound: [] });
  expect(globals.__FEDERATION__.__INSTANCES__.filter((instance) => instance.name === 'gifts')).toHaveLength(1);
  const cached = (runtime as unknown as { moduleCache: Map<string, { remoteInfo: { entry: string } }> }).moduleCache;
  expect(cached.get('gifts')?.remoteInfo.entry).toBe(`${GIFTS}/builds/s1/remoteEntry.js`);
  // The shared modules only the broken build offered are gone from the page's share scope (the
  // runtime leaves their names, with no version to load).
  const versions = (name: string) => Object.keys(runtime.shareScopeMap.default?.[name] ?? {});
  expect(versions('only-in-s1')).toEqual(['1.0.0']);
  expect(versions('only-in-c2')).toEqual([]);
  // The tab remembers the broken build.
  expect(JSON.parse(sessionStorage.getItem(BROKEN_BUILDS_KEY) ?? '{}')).toEqual({ gifts: ['c2', expect.any(Number)] });
});
