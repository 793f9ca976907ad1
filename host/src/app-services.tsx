/** What the host's components need from start-up: remote loading and the version check. */
import { createContext, useContext } from 'react';
import type { RemoteLoader } from './federation/remote-loader';
import type { VersionCheck } from './version-check/version-check';

export interface AppServices {
  remotes: RemoteLoader;
  versionCheck: VersionCheck;
}

export const AppServicesContext = createContext<AppServices | null>(null);

export function useAppServices(): AppServices {
  const services = useContext(AppServicesContext);
  if (!services) throw new Error('useAppServices must be used inside AppServicesContext');
  return services;
}
