/** The site composed at run time, again when a remote publishes other routes (docs/decisions/0047-compose-by-configuration.md). */
import { serverLog } from 'server/log';
import {
  composeRoutes,
  compositionOrder,
  grantsOf,
  refusalText,
  registryRoutes,
  type ComposedRoute,
  type CompositionRefusal,
} from 'shared/composition';
import type { RuntimeConfig } from 'shared/runtime-config';
import { RouteTable } from '../src/route-table/route-table';
import type { PublishedRoutes, RemoteSnapshot } from './remote-snapshot';

export interface ComposedSite {
  readonly routes: readonly ComposedRoute[];
  readonly refusals: readonly CompositionRefusal[];
  readonly table: RouteTable;
}

export interface SiteCompositionOptions {
  config: Pick<RuntimeConfig, 'remotes' | 'routeGrants'>;
  snapshot?: (remote: string) => RemoteSnapshot | undefined;
  /** Hears each refusal once per change of the composition. */
  log?: (message: string) => void;
}

const unread = (remote: string): PublishedRoutes => ({ routes: registryRoutes(remote), refusals: [] });

export class SiteComposition {
  private readonly order: string[];
  private readonly log: (message: string) => void;
  /** The same objects, the same composition. */
  private inputs: Array<PublishedRoutes | undefined> = [];
  private site: ComposedSite | undefined;
  private key = '';

  constructor(private readonly options: SiteCompositionOptions) {
    this.order = compositionOrder(Object.keys(options.config.remotes));
    this.log = options.log ?? ((message) => serverLog().warn(message));
  }

  current(): ComposedSite {
    const inputs = this.order.map((remote) => this.options.snapshot?.(remote)?.published);
    if (this.site && inputs.every((input, index) => input === this.inputs[index])) return this.site;
    this.inputs = inputs;
    const published = inputs.map((input, index) => input ?? unread(this.order[index] as string));
    const offers = this.order.map((remote, index) => ({
      remote,
      routes: (published[index] as PublishedRoutes).routes,
      grants: grantsOf(this.options.config, remote),
    }));
    const { routes, refusals } = composeRoutes(offers);
    const allRefusals = [...published.flatMap((input) => input.refusals), ...refusals];
    const key = JSON.stringify([routes, allRefusals]);
    if (this.site && key === this.key) return this.site;
    this.key = key;
    this.site = { routes, refusals: allRefusals, table: new RouteTable(routes) };
    for (const refusal of allRefusals) this.log(refusalText(refusal));
    return this.site;
  }
}

export function compositionHealth({ routes, refusals }: ComposedSite): { routes: number; refused: number } {
  return { routes: routes.length, refused: refusals.length };
}
