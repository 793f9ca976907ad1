/** Renders the host's real routes and layouts in memory, with remotes that tests control. */
import { act, configure, getConfig, render } from '@testing-library/react';
import { createRequestActivity, type RequestActivity } from 'shared/browser/api/activity';
import type { ComponentType, ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, type RouterState } from 'react-router-dom';
import { AppServicesContext, type AppServices, type PrerenderedPage } from './app-services';
import type { RemoteLoader } from './federation/remote-loader';
import { RouteTable } from './route-table/route-table';
import { createRoutes } from './router/create-routes';
import type { PageTelemetry } from './telemetry/page-telemetry';
import { createThirdParties, type ThirdParties } from './third-party/third-parties';
import { ThirdPartiesContext } from './third-party/third-parties-context';
import type { VersionCheck } from './version-check/version-check';

export type LoadImpl = (remote: string, module: string) => Promise<ComponentType>;

export function pageNamed(text: string): ComponentType {
  return function TestPage() {
    return <h1>{text}</h1>;
  };
}

/** A `wrapper` for render(): the host's third parties (a fresh set unless given) around the tree. */
export function withThirdParties(thirdParties: ThirdParties = createThirdParties()) {
  return function ThirdPartiesWrapper({ children }: { children: ReactNode }) {
    return <ThirdPartiesContext.Provider value={thirdParties}>{children}</ThirdPartiesContext.Provider>;
  };
}

/**
 * Runs `interaction` (user-event's) in the act scope it is called in. testing-library runs each
 * user-event call in a wrapper that turns act's environment off, for tests that then poll for the
 * result; inside a scope of our own that only makes React warn, so the wrapper is left out.
 */
async function inActScope(interaction: () => Promise<unknown>): Promise<void> {
  const { asyncWrapper } = getConfig();
  configure({ asyncWrapper: (callback) => callback() });
  try {
    await interaction();
  } finally {
    configure({ asyncWrapper });
  }
}

/** Does a visitor's `interaction` (a click) inside act: once it resolves, React has rendered all it set off. */
export function interact(interaction: () => Promise<unknown>): Promise<void> {
  return act(() => inActScope(interaction));
}

type TestRouter = ReturnType<typeof createMemoryRouter>;

/** The router has what it was asked for: the first page, a navigation or a revalidation is done. */
function isSettled(state: RouterState): boolean {
  return state.initialized && state.navigation.state === 'idle' && state.revalidation === 'idle';
}

/**
 * Resolves when the router next has nothing loading (at once if it has nothing now). Tests wait
 * for this signal from the router, inside act, rather than for a clock: a findBy query gives up
 * after a second, which a busy machine can spend before the first page has rendered; once act
 * has returned, React has rendered what the router settled on (state, effects, error boundaries)
 * and the test reads the page at once.
 */
function routerSettled(router: TestRouter): Promise<void> {
  return new Promise((resolve) => {
    if (isSettled(router.state)) return resolve();
    const unsubscribe = router.subscribe((state) => {
      if (!isSettled(state)) return;
      unsubscribe();
      resolve();
    });
  });
}

/**
 * Does `interaction` (a click or a navigation), if any, then waits until `router` has loaded the
 * page (or its error) it was asked for; React has rendered it when this resolves. For a test that
 * renders the routes itself; renderApp gives its own router's as `settled`.
 */
export function settle(router: TestRouter, interaction?: () => Promise<unknown>): Promise<void> {
  return act(async () => {
    if (interaction) await inActScope(interaction);
    await routerSettled(router);
  });
}

/** A mock with `impl` behind it, and the arguments of its first call once it is called. */
function mockWithFirstCall<A extends unknown[], R>(impl: (...args: A) => R) {
  let called: (args: A) => void = () => undefined;
  const firstCall = new Promise<A>((resolve) => {
    called = resolve;
  });
  const mock = jest.fn<R, A>((...args) => {
    called(args);
    return impl(...args);
  });
  return { mock, firstCall };
}

/** A version check that never asks anything: what a test gives overrides it. */
export function versionCheckStub(overrides: Partial<VersionCheck> = {}): VersionCheck {
  return {
    start: jest.fn(),
    stop: jest.fn(),
    poll: jest.fn(async () => undefined),
    trackRemote: jest.fn(async () => undefined),
    isStale: () => false,
    checkNavigation: jest.fn(async () => false),
    prepareNavigation: jest.fn(),
    followsBuilds: () => false,
    leaveThrowingBuild: jest.fn(async () => false),
    ...overrides,
  };
}

interface RenderAppOptions {
  /** The page's route table; the registry's remotes with their own grants unless given. */
  routes?: RouteTable;
  load?: LoadImpl;
  isStale?: () => boolean;
  /** The version check's parts a test controls (isStale aside). */
  versionCheck?: Partial<VersionCheck>;
  /** The build each remote is loaded from, as the page's configuration names it. */
  builds?: Partial<Record<string, string>>;
  reloadOnce?: (path: string) => boolean;
  apiActivity?: RequestActivity;
  /** The page the host's server prerendered into the document. */
  prerendered?: PrerenderedPage;
  /** What the page reports; nothing unless given. */
  telemetry?: PageTelemetry;
}

export function renderApp(path: string, options: RenderAppOptions = {}) {
  const load = jest.fn<Promise<ComponentType>, [string, string]>(
    options.load ?? (async (_remote, module) => pageNamed(`${module} content`)),
  );
  const remotes: RemoteLoader = {
    load,
    prefetch: jest.fn(),
    warm: jest.fn(),
    reset: jest.fn(),
    buildOf: (remote) => options.builds?.[remote],
  };
  const isStale = options.isStale ?? (() => false);
  const versionCheck = versionCheckStub({
    isStale,
    checkNavigation: jest.fn(async () => isStale()),
    ...options.versionCheck,
  });
  const reload = mockWithFirstCall<[string, number?], boolean>(options.reloadOnce ?? (() => false));
  const reloadOnce = reload.mock;
  const full = mockWithFirstCall<[string], void>(() => undefined);
  const fullLoad = full.mock;
  const routes = options.routes ?? RouteTable.registry();
  const router = createMemoryRouter(createRoutes(routes, { remotes, versionCheck, reloadOnce, fullLoad }), {
    initialEntries: [path],
  });
  const apiActivity = options.apiActivity ?? createRequestActivity();
  const services: AppServices = {
    routes,
    remotes,
    versionCheck,
    fullLoad,
    reloadOnce,
    apiActivity,
    prerendered: options.prerendered,
    telemetry: options.telemetry,
  };
  const thirdParties = createThirdParties({ routes });
  const view = render(
    <AppServicesContext.Provider value={services}>
      <RouterProvider router={router} />
    </AppServicesContext.Provider>,
    { wrapper: withThirdParties(thirdParties) },
  );
  return {
    ...view,
    router,
    remotes,
    load,
    reloadOnce,
    fullLoad,
    apiActivity,
    thirdParties,
    /**
     * Does `interaction` (a click that navigates), then waits until the router has loaded the page
     * (or its error) it was asked for; React has rendered it when this resolves. All in one act
     * scope, so React renders where the router ended, not the loading on the way: a test that
     * needs the loading rendered first (a retry, which the error's boundary must see start) calls
     * interact() for the click, then this.
     */
    settled: (interaction?: () => Promise<unknown>) => settle(router, interaction),
    /** The arguments of the first reload the app asked the guard for, once it asks. */
    firstReload: () => act(() => reload.firstCall),
    /** The arguments of the first full page load the app started, once it starts one. */
    firstFullLoad: () => act(() => full.firstCall),
  };
}
