/** What the host's components need from start-up. */
import { createContext, useContext } from 'react';
import type { RequestActivity } from 'shared/browser/api/activity';
import type { RemoteLoader } from './federation/remote-loader';
import type { RouteTable } from './route-table/route-table';
import type { PageTelemetry } from './telemetry/page-telemetry';
import type { VersionCheck } from './version-check/version-check';

export interface AppServices {
  routes: RouteTable;
  remotes: RemoteLoader;
  versionCheck: VersionCheck;
  /** Query and fragment included. */
  fullLoad: (path: string) => void;
  reloadOnce: (path: string, startedAt?: number) => boolean;
  apiActivity: RequestActivity;
  /** Shown again should its remote fail to load. */
  prerendered?: PrerenderedPage;
  /** None when the configuration switches it off. */
  telemetry?: PageTelemetry;
}

export interface PrerenderedPage {
  pathname: string;
  content: DocumentFragment;
}

export const AppServicesContext = createContext<AppServices | null>(null);

export function useAppServices(): AppServices {
  const services = useContext(AppServicesContext);
  if (!services) throw new Error('useAppServices must be used inside AppServicesContext');
  return services;
}
