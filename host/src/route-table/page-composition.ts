/** The route table the host's server composed, or one the page composes as it would (docs/decisions/0047). */
import { composeRoutes, grantsOf, refusalText, registryRoutes, type RemoteOffer } from 'shared/composition';
import { manifestPublishedRoutes } from 'shared/published-routes';
import { REMOTE_NAMES } from 'shared/remotes';
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
  const reading = manifest === undefined ? undefined : manifestPublishedRoutes(manifest, { remote });
  for (const refusal of reading?.refusals ?? []) deps.warn?.(refusalText({ remote, ...refusal }));
  return { remote, routes: reading?.routes ?? registryRoutes(remote), grants: grantsOf(config, remote) };
}

export async function pageRouteTable(config: RuntimeConfig, deps: PageCompositionDeps): Promise<RouteTable> {
  if (config.routes) return new RouteTable(config.routes);
  const warn = deps.warn ?? ((message: string) => console.warn(message));
  // The registry's remotes first, then the added ones, in the configuration's order.
  const added = Object.keys(config.remotes).filter((name) => !(REMOTE_NAMES as readonly string[]).includes(name));
  const names = [...REMOTE_NAMES, ...added];
  // Every manifest at once: the page waits for the slowest, bounded by remoteTimeoutMs.
  const offers = await Promise.all(names.map((remote) => offerOf(config, remote, { ...deps, warn })));
  const { routes, refusals } = composeRoutes(offers);
  for (const refusal of refusals) warn(refusalText(refusal));
  return new RouteTable(routes);
}
