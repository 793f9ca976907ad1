import type { ComponentType } from 'react';
import { REMOTE_NAMES, REMOTES, type RemoteModuleName, type RemoteName } from './remotes';

export { REMOTE_NAMES, type RemoteModuleName, type RemoteName } from './remotes';

/**
 * The names the host may load: `{remote}/{exposed module}`, from the registry (`./remotes`).
 * Remotes expose exactly these: their webpack `exposes` is derived from the same entries.
 */
export const REMOTE_MODULES = Object.fromEntries(
  REMOTE_NAMES.map((name) => [name, Object.keys(REMOTES[name].exposes) as readonly RemoteModuleName[]]),
) as {
  readonly [R in RemoteName]: readonly RemoteModuleName<R>[];
};

/**
 * Every exposed page is a module whose default export is a component without required props.
 * Pages read route parameters with react-router's hooks: the router is a shared singleton.
 */
export interface RemotePageModule {
  default: ComponentType;
}
