/** The route table the host's server composed, or one the page composes as it would (docs/decisions/0047). */
import {
  composeRoutes,
  compositionOrder,
  grantsOf,
  manifestRoutes,
  refusalText,
  registryRoutes,
  type RemoteOffer,
} from 'shared/composition';
import type { RuntimeConfig } from 'shared/runtime-config';
import { RouteTable } from './route-table';

export interface PageCompositionDeps {
  readManifest: (url: string) => Promise<unknown>;
  warn?: (message: string) => void;
}

/** Without a readable manifest: the registry's routes, or none for a remote it does not name. */
async function offerOf(config: RuntimeConfig, remote: string, deps: PageCompositionDeps): Promise<RemoteOffer> {
  const url = config.remotes[remote];
  const manifest = url === undefined ? undefined : await deps.readManifest(url);
  const reading = manifest === undefined ? undefined : manifestRoutes(remote, manifest);
  for (const refusal of reading?.refusals ?? []) deps.warn?.(refusalText(refusal));
  return { remote, routes: reading?.routes ?? registryRoutes(remote), grants: grantsOf(config, remote) };
}

export async function pageRouteTable(config: RuntimeConfig, deps: PageCompositionDeps): Promise<RouteTable> {
  if (config.routes) return new RouteTable(config.routes);
  const warn = deps.warn ?? ((message: string) => console.warn(message));
  const names = compositionOrder(Object.keys(config.remotes));
  // Every manifest at once: the page waits for the slowest, bounded by remoteTimeoutMs.
  const offers = await Promise.all(names.map((remote) => offerOf(config, remote, { ...deps, warn })));
  const { routes, refusals } = composeRoutes(offers);
  for (const refusal of refusals) warn(refusalText(refusal));
  return new RouteTable(routes);
}
