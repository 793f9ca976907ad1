/**
 * The site the host's server composes at run time (docs/decisions/0047-compose-by-configuration.md):
 * the route table of the configured remotes' published routes, each kept where the integrator
 * granted its path, composed again whenever a remote's build read anew publishes other routes.
 */
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

/** One composition of the site: its table, and every route left out of it with the reason. */
export interface ComposedSite {
  readonly routes: readonly ComposedRoute[];
  readonly refusals: readonly CompositionRefusal[];
  readonly table: RouteTable;
}

export interface SiteCompositionOptions {
  config: Pick<RuntimeConfig, 'remotes' | 'routeGrants'>;
  /** Each remote's stable build as last read; undefined while none has been. */
  snapshot?: (remote: string) => RemoteSnapshot | undefined;
  /** Where each refused route is said, once per change of the composition; the host's log by default. */
  log?: (message: string) => void;
}

/** A remote's routes before its manifest has been read: the registry's for a remote it names, else none. */
const unread = (remote: string): PublishedRoutes => ({ routes: registryRoutes(remote), refusals: [] });

export class SiteComposition {
  private readonly order: string[];
  private readonly log: (message: string) => void;
  /** The published routes each composition was made of: the same objects, the same composition. */
  private inputs: Array<PublishedRoutes | undefined> = [];
  private site: ComposedSite | undefined;
  private key = '';

  constructor(private readonly options: SiteCompositionOptions) {
    this.order = compositionOrder(Object.keys(options.config.remotes));
    this.log = options.log ?? ((message) => serverLog().warn(message));
  }

  /** The site as the remotes' builds read last compose it; logs its refusals when it changes. */
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

/** What `/healthz` says of the composition: how many routes it holds and how many were left out. */
export function compositionHealth({ routes, refusals }: ComposedSite): { routes: number; refused: number } {
  return { routes: routes.length, refused: refusals.length };
}
