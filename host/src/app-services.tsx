/** What the host's components need from start-up: the route table, remote loading, the version check, the reload guard, API activity, telemetry. */
import { createContext, useContext } from 'react';
import type { RequestActivity } from 'shared/browser/api/activity';
import type { RemoteLoader } from './federation/remote-loader';
import type { RouteTable } from './route-table/route-table';
import type { PageTelemetry } from './telemetry/page-telemetry';
import type { VersionCheck } from './version-check/version-check';

export interface AppServices {
  /** The page's route table (route-table/page-composition.ts): what every link, page view and report names. */
  routes: RouteTable;
  remotes: RemoteLoader;
  versionCheck: VersionCheck;
  /** A full page load of `path` (its query and fragment included). */
  fullLoad: (path: string) => void;
  /** The reload guard (reload-guard.ts), bound to this browser window. */
  reloadOnce: (path: string, startedAt?: number) => boolean;
  /** API requests in flight, for the progress bar. */
  apiActivity: RequestActivity;
  /**
   * The page the host's server prerendered into this document, as it was before the app
   * started: shown again, should its remote fail to load (route-error.tsx).
   */
  prerendered?: PrerenderedPage;
  /** What the page reports (telemetry/start-telemetry.ts); none when the configuration switches it off. */
  telemetry?: PageTelemetry;
}

export interface PrerenderedPage {
  pathname: string;
  /** The nodes inside the main region, as the browser parsed them (prerender/kept-content.tsx). */
  content: DocumentFragment;
}

export const AppServicesContext = createContext<AppServices | null>(null);

export function useAppServices(): AppServices {
  const services = useContext(AppServicesContext);
  if (!services) throw new Error('useAppServices must be used inside AppServicesContext');
  return services;
}
