/** Renders the host's real routes and layouts in memory, with remotes that tests control. */
import { render } from '@testing-library/react';
import { createRequestActivity, type RequestActivity } from 'shared/browser/api/activity';
import type { ComponentType, ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import type { RemoteName } from 'shared/remotes';
import { AppServicesContext, type AppServices, type PrerenderedPage } from './app-services';
import type { RemoteLoader } from './federation/remote-loader';
import { createRoutes } from './router/create-routes';
import type { PageTelemetry } from './telemetry/page-telemetry';
import { createThirdParties, type ThirdParties } from './third-party/third-parties';
import { ThirdPartiesContext } from './third-party/third-parties-context';
import type { VersionCheck } from './version-check/version-check';

export type LoadImpl = (remote: RemoteName, module: string) => Promise<ComponentType>;

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

interface RenderAppOptions {
  load?: LoadImpl;
  isStale?: () => boolean;
  reloadOnce?: (path: string) => boolean;
  apiActivity?: RequestActivity;
  /** The page the host's server prerendered into the document. */
  prerendered?: PrerenderedPage;
  /** What the page reports; nothing unless given. */
  telemetry?: PageTelemetry;
}

export function renderApp(path: string, options: RenderAppOptions = {}) {
  const load = jest.fn<Promise<ComponentType>, [RemoteName, string]>(
    options.load ?? (async (_remote, module) => pageNamed(`${module} content`)),
  );
  const remotes: RemoteLoader = { load, prefetch: jest.fn(), reset: jest.fn() };
  const versionCheck: VersionCheck = {
    start: jest.fn(),
    stop: jest.fn(),
    poll: jest.fn(async () => undefined),
    trackRemote: jest.fn(async () => undefined),
    isStale: options.isStale ?? (() => false),
  };
  const reloadOnce = jest.fn<boolean, [string, number?]>(options.reloadOnce ?? (() => false));
  const fullLoad = jest.fn();
  const router = createMemoryRouter(createRoutes({ remotes, versionCheck, reloadOnce, fullLoad }), {
    initialEntries: [path],
  });
  const apiActivity = options.apiActivity ?? createRequestActivity();
  const services: AppServices = {
    remotes,
    versionCheck,
    reloadOnce,
    apiActivity,
    prerendered: options.prerendered,
    telemetry: options.telemetry,
  };
  const thirdParties = createThirdParties();
  const view = render(
    <AppServicesContext.Provider value={services}>
      <RouterProvider router={router} />
    </AppServicesContext.Provider>,
    { wrapper: withThirdParties(thirdParties) },
  );
  return { ...view, router, remotes, load, reloadOnce, fullLoad, apiActivity, thirdParties };
}
