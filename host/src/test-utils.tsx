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

export function withThirdParties(thirdParties: ThirdParties = createThirdParties()) {
  return function ThirdPartiesWrapper({ children }: { children: ReactNode }) {
    return <ThirdPartiesContext.Provider value={thirdParties}>{children}</ThirdPartiesContext.Provider>;
  };
}

/** Without testing-library's wrapper, which turns act's environment off inside our own act scope. */
async function inActScope(interaction: () => Promise<unknown>): Promise<void> {
  const { asyncWrapper } = getConfig();
  configure({ asyncWrapper: (callback) => callback() });
  try {
    await interaction();
  } finally {
    configure({ asyncWrapper });
  }
}

export function interact(interaction: () => Promise<unknown>): Promise<void> {
  return act(() => inActScope(interaction));
}

type TestRouter = ReturnType<typeof createMemoryRouter>;

function isSettled(state: RouterState): boolean {
  return state.initialized && state.navigation.state === 'idle' && state.revalidation === 'idle';
}

/** A signal from the router rather than a clock: a busy machine can spend findBy's second. */
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

export function settle(router: TestRouter, interaction?: () => Promise<unknown>): Promise<void> {
  return act(async () => {
    if (interaction) await inActScope(interaction);
    await routerSettled(router);
  });
}

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
  routes?: RouteTable;
  load?: LoadImpl;
  isStale?: () => boolean;
  versionCheck?: Partial<VersionCheck>;
  /** The build each remote is loaded from, as the page's configuration names it. */
  builds?: Partial<Record<string, string>>;
  reloadOnce?: (path: string) => boolean;
  apiActivity?: RequestActivity;
  prerendered?: PrerenderedPage;
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
