import { loadRemote, preloadRemote, registerPlugins, registerRemotes } from '@module-federation/enhanced/runtime';
import { StrictMode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { createRequestActivity } from 'shared/browser/api/activity';
import { ApiProvider } from 'shared/browser/api/api-context';
import { createApiClient } from 'shared/api/client';
import type { RemoteName } from 'shared/remote-contract';
import { AppServicesContext, type AppServices } from './app-services';
import { loadRuntimeConfig } from './config/load-config';
import { ConfigErrorScreen } from './errors/config-error-screen';
import { configureIconService } from 'shared/browser/icons/icon-service';
import { createRemoteLoader } from './federation/remote-loader';
import { timeoutPlugin } from './federation/timeout-plugin';
import { browserReloadDeps, reloadOnce } from './reload-guard/reload-guard';
import { createRoutes } from './router/create-routes';
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

export async function start(configResponse: Promise<Response>): Promise<void> {
  const container = document.getElementById('root');
  if (!container) throw new Error('The page has no #root element');
  const root = createRoot(container);

  let config;
  try {
    config = await loadRuntimeConfig(configResponse);
  } catch (error) {
    renderConfigError(root, error);
    return;
  }

  const versionCheck = createVersionCheck({
    buildId: __BUILD_ID__,
    intervalMs: config.buildCheckIntervalMs,
    deps: browserVersionCheckDeps(),
  });
  registerPlugins([timeoutPlugin(config.remoteTimeoutMs)]);
  // Before the first render: a page may ask for an icon that is not bundled straight away.
  configureIconService(config.icons);
  const remotes = createRemoteLoader({
    config,
    runtime: { registerRemotes, loadRemote, preloadRemote },
    onRemoteLoaded: (name: RemoteName, entryUrl) => void versionCheck.trackRemote(name, entryUrl),
  });
  const guardedReload = (path: string, startedAt?: number) => reloadOnce(path, browserReloadDeps, startedAt);
  const apiActivity = createRequestActivity();
  const services: AppServices = { remotes, versionCheck, reloadOnce: guardedReload, apiActivity };
  const thirdParties = createThirdParties();
  const api = createApiClient({ baseUrl: config.apiBaseUrl, activity: apiActivity });
  const router = createBrowserRouter(
    createRoutes({
      remotes,
      versionCheck,
      reloadOnce: guardedReload,
      // A loader sees no #fragment; the pending navigation's location has it.
      fullLoad: (path) => window.location.assign(`${path}${router.state.navigation.location?.hash ?? ''}`),
    }),
  );

  window.addEventListener('unhandledrejection', (event) => {
    console.error('Unhandled promise rejection', event.reason);
  });

  root.render(
    <StrictMode>
      <AppServicesContext.Provider value={services}>
        <ThirdPartiesContext.Provider value={thirdParties}>
          <ApiProvider client={api}>
            <RouterProvider router={router} />
            <ThirdPartyStarter config={config} router={router} />
          </ApiProvider>
        </ThirdPartiesContext.Provider>
      </AppServicesContext.Provider>
    </StrictMode>,
  );
  versionCheck.start();
}
