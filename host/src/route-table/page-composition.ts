/**
 * The page's route table: the one the host's server composed and wrote into the configuration,
 * or, for a configuration without it (a static `/config.json`, a server older than the format),
 * one the page composes itself before it mounts, as the server does: each configured remote's
 * published routes from its manifest, kept where its grant allows
 * (docs/decisions/0047-compose-by-configuration.md).
 */
import { composeRoutes, grantsOf, refusalText, registryRoutes, type RemoteOffer } from 'shared/composition';
import { manifestPublishedRoutes } from 'shared/published-routes';
import { REMOTE_NAMES } from 'shared/remotes';
import type { RuntimeConfig } from 'shared/runtime-config';
import { RouteTable } from './route-table';

export interface PageCompositionDeps {
  /** A remote's manifest as JSON, or undefined when it cannot be read (federation/manifest-reads.ts). */
  readManifest: (url: string) => Promise<unknown>;
  /** Where each route left out is said: the console unless a test listens. */
  warn?: (message: string) => void;
}

/**
 * What a remote offers: the routes its manifest publishes, or, when it cannot be read or
 * publishes none, the registry's for a remote this repository builds and none for another
 * (its pages show the not-found page).
 */
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
