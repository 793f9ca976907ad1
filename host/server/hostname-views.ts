/** Development only: a view per hostname the defaults follow (decision 0017); production holds one view. */
import fp from 'fastify-plugin';
import { LRUCache } from 'lru-cache';
import { configAtHostname, pageHostname, snapshotAtHostname, type FollowedOrigins } from './page-hostname';
import { pageHeadersFor, type HostnameView, type ServedSite } from './served-site';

/** A Host header is the client's to choose. */
export const MAX_VIEWS = 16;

export class HostnameViews {
  private readonly views = new LRUCache<string, HostnameView>({ max: MAX_VIEWS });
  private site: ServedSite | undefined;

  constructor(private readonly followed: FollowedOrigins) {}

  viewAt(served: ServedSite, hostHeader: string | undefined): HostnameView {
    if (this.site !== served) {
      this.views.clear();
      this.site = served;
    }
    const hostname = pageHostname(hostHeader, this.followed);
    if (hostname === undefined) return served.defaultView;
    let view = this.views.get(hostname);
    if (!view) {
      const config = configAtHostname(served.config, this.followed, hostname);
      view = {
        config,
        configBody: `${JSON.stringify(config)}\n`,
        at: (snapshot) => snapshotAtHostname(snapshot, this.followed, hostname),
        pageHeaders: pageHeadersFor(config),
      };
      this.views.set(hostname, view);
    }
    return view;
  }

  kept(): Array<[string, HostnameView]> {
    return [...this.views.rkeys()].flatMap((hostname) => {
      const view = this.views.peek(hostname);
      return view ? [[hostname, view] as [string, HostnameView]] : [];
    });
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    hostnameViews?: HostnameViews;
  }
}

export const hostnameViewsPlugin = fp<{ followed: FollowedOrigins }>(
  (app, { followed }, done) => {
    app.decorate('hostnameViews', new HostnameViews(followed));
    done();
  },
  { name: 'hostname-views' },
);
