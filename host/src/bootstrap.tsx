import { loadRemote, preloadRemote, registerPlugins, registerRemotes } from '@module-federation/enhanced/runtime';
import { StrictMode, useEffect } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { createRequestActivity } from 'shared/browser/api/activity';
import { ApiProvider } from 'shared/browser/api/api-context';
import { PRERENDERED_ATTRIBUTE } from 'shared/page-data';
import { createApiClient, type ApiClient } from 'shared/api/client';
import type { RuntimeConfig } from 'shared/runtime-config';
import { allowedRemoteOrigins } from 'shared/runtime-config-checks';
import { AppServicesContext, type AppServices, type PrerenderedPage } from './app-services';
import { onCaughtError, onRouterError } from './errors/caught-errors';
import { ConfigErrorScreen } from './errors/config-error-screen';
import { configureIconService } from 'shared/browser/icons/icon-service';
import { createRemoteLoader, type FederationRuntime } from './federation/remote-loader';
import { loadingPlugin } from './federation/loading-plugin';
import { createManifestReads, type ManifestReads } from './federation/manifest-reads';
import { browserReloadDeps, reloadOnce } from './reload-guard/reload-guard';
import { keepEarlyClicks } from './prerender/early-clicks';
import { keepEarlyInput } from './prerender/early-input';
import { keptContent } from './prerender/kept-content';
import { pageRouteTable } from './route-table/page-composition';
import type { RouteTable } from './route-table/route-table';
import { createRoutes } from './router/create-routes';
import { startTelemetry } from './telemetry/start-telemetry';
import { afterFirstPage } from './third-party/after-first-paint';
import { ThirdPartyStarter } from './third-party/third-party-starter';
import { createThirdParties } from './third-party/third-parties';
import { ThirdPartiesContext } from './third-party/third-parties-context';
import { browserVersionCheckDeps, createVersionCheck } from './version-check/version-check';
import './styles/host.css';

function renderConfigError(root: Root, error: unknown): void {
  console.error(error);
  // Without a router the error page's home link is a plain document link.
  root.render(<ConfigErrorScreen error={error} />);
}

/** Runs `effect` once the tree around it has committed: the DOM is the app's from then on. */
function AfterCommit({ effect }: { effect: () => void }) {
  useEffect(effect, [effect]);
  return null;
}

/** Resolves once the router has loaded its first route (its remote page, or the error it shows). */
export function firstRouteLoaded(router: ReturnType<typeof createBrowserRouter>): Promise<void> {
  if (router.state.initialized) return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      resolve();
    });
  });
}

/** The parts of the federation runtime the page uses; tests give their own. */
export interface PageFederation extends FederationRuntime {
  registerPlugins: typeof registerPlugins;
}

const FEDERATION: PageFederation = { registerPlugins, registerRemotes, loadRemote, preloadRemote };

/**
 * The page's telemetry, version check and remote loader, with the federation runtime's plugins:
 * before any remote is loaded, so that every load is seen (unless the configuration says not to).
 */
function startRemotes(config: RuntimeConfig, routes: RouteTable, federation: PageFederation, manifests: ManifestReads) {
  const telemetry = startTelemetry(config, __BUILD_ID__, routes);
  const versionCheck = createVersionCheck({
    buildId: __BUILD_ID__,
    intervalMs: config.buildCheckIntervalMs,
    deps: browserVersionCheckDeps(),
    // This visitor's builds, when the host's server says which it gave the page.
    buildsUrl: config.remoteBuilds && config.buildsUrl,
    onTicket: telemetry?.ticket.replace,
    // While a remote's deployment is unsettled, on each navigation too (route-loader.ts).
    checkOnNavigation: config.checkBuildsOnNavigation,
    timeoutMs: config.remoteTimeoutMs,
  });
  federation.registerPlugins([
    loadingPlugin({
      timeoutMs: config.remoteTimeoutMs,
      allowedOrigins: allowedRemoteOrigins(config),
      // The remotes' development builds (`webpack serve`) record no integrity.
      requireIntegrity: process.env.NODE_ENV === 'production',
      builds: telemetry?.builds,
      config,
      manifestReads: manifests,
    }),
    ...(telemetry ? [telemetry.plugin] : []),
  ]);
  // Before the first render: a page may ask for an icon that is not bundled straight away.
  configureIconService(config.icons);
  const remotes = createRemoteLoader({
    config,
    runtime: federation,
    onRemoteLoaded: (name: string, entryUrl, build) => void versionCheck.trackRemote(name, entryUrl, build),
    onFallback: telemetry?.page.fellBack,
    onLoadEnd: telemetry?.page.loadEnded,
    onLoadRetry: telemetry?.page.loadRetried,
  });
  return { telemetry, versionCheck, remotes };
}

/** The browser's router over the page's route table. */
function pageRouter(services: AppServices, api: ApiClient) {
  const { routes, remotes, versionCheck, reloadOnce: guardedReload, fullLoad } = services;
  const router = createBrowserRouter(
    createRoutes(routes, {
      remotes,
      versionCheck,
      reloadOnce: guardedReload,
      // A route's data (the gift, the redeem session) is requested with its code.
      api,
      // A loader sees no #fragment; the pending navigation's location has it.
      fullLoad: (path) => fullLoad(`${path}${router.state.navigation.location?.hash ?? ''}`),
    }),
  );
  return router;
}

/** The page's router once the app is mounted; none when the configuration could not be read. */
export interface StartedPage {
  router: ReturnType<typeof createBrowserRouter>;
}

export async function start(
  runtimeConfig: Promise<RuntimeConfig>,
  federation = FEDERATION,
): Promise<StartedPage | undefined> {
  const container = document.getElementById('root');
  if (!container) throw new Error('The page has no #root element');
  // A prerendered page keeps its markup on screen until the app's first render holds the same page.
  const prerendered: PrerenderedPage | undefined = container.hasAttribute(PRERENDERED_ATTRIBUTE)
    ? { pathname: window.location.pathname, content: keptContent(container) }
    : undefined;
  // Until then, clicks and typing are kept for the app's own markup.
  const earlyClicks = prerendered ? keepEarlyClicks(container) : undefined;
  const earlyInput = prerendered ? keepEarlyInput(container) : undefined;
  const root = createRoot(container, { onCaughtError });

  let config;
  try {
    config = await runtimeConfig;
  } catch (error) {
    renderConfigError(root, error);
    return undefined;
  }
  const manifests = createManifestReads({ timeoutMs: config.remoteTimeoutMs });
  const routes = await pageRouteTable(config, { readManifest: manifests.read });
  const { telemetry, versionCheck, remotes } = startRemotes(config, routes, federation, manifests);
  const reloadDeps = { ...browserReloadDeps, onReload: telemetry?.page.reloaded };
  const guardedReload = (path: string, startedAt?: number) => reloadOnce(path, reloadDeps, startedAt);
  const apiActivity = createRequestActivity();
  const fullLoad = (path: string) => window.location.assign(path);
  const services: AppServices = {
    routes,
    remotes,
    versionCheck,
    fullLoad,
    reloadOnce: guardedReload,
    apiActivity,
    prerendered,
    telemetry: telemetry?.page,
  };
  const thirdParties = createThirdParties({ routes });
  const api = createApiClient({ baseUrl: config.apiBaseUrl, activity: apiActivity });
  const router = pageRouter(services, api);
  if (telemetry) router.subscribe((state) => telemetry.routes.record(state.location.pathname, performance.now()));

  if (prerendered) {
    await firstRouteLoaded(router);
    // The prerendered markup's largest paint, read while that markup is still the page's.
    await telemetry?.paints.firstPaintReported();
    telemetry?.paints.takeRecords();
  }
  // The prerendered markup is gone once the app has rendered: the attribute says so to the page's scripts and tests.
  const markTakenOver = () => {
    container.removeAttribute(PRERENDERED_ATTRIBUTE);
    earlyInput?.replay();
    earlyClicks?.replay();
  };

  window.addEventListener('unhandledrejection', (event) => {
    console.error('Unhandled promise rejection', event.reason);
  });

  root.render(
    <StrictMode>
      <AppServicesContext.Provider value={services}>
        <ThirdPartiesContext.Provider value={thirdParties}>
          <ApiProvider client={api}>
            <RouterProvider router={router} onError={onRouterError} />
            <ThirdPartyStarter config={config} router={router} />
            {prerendered && <AfterCommit effect={markTakenOver} />}
          </ApiProvider>
        </ThirdPartiesContext.Provider>
      </AppServicesContext.Provider>
    </StrictMode>,
  );
  versionCheck.start();
  // The web-vitals library once the first page is on screen, as the third parties.
  if (telemetry) afterFirstPage(router, { 'web vitals': telemetry.startVitals });
  return { router };
}
