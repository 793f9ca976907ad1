/** Path → remote module and layout; data only, as the host's server reads it too. */
import { matchRoutes } from 'react-router-dom';
import { composeRoutes, grantsOf, registryRoutes, type ComposedRoute } from 'shared/composition';
import { HttpError } from 'shared/http-error';
import { REMOTE_NAMES, type LayoutName, type ServerDataQuery } from 'shared/remotes';
import { decodePath } from 'shared/url-path';
import { routeDataOf, type RouteData } from './route-data';
import { VALIDATORS, type RouteValidator } from './validators';

export type { LayoutName } from 'shared/remotes';

export type RouteParams = Record<string, string | undefined>;

export interface RouteDefinition {
  path: string;
  remote: string;
  module: string;
  layout: LayoutName;
  title: string;
  validate?: RouteValidator;
  /** Requested together with the page's code. */
  data?: RouteData;
  /** The remote publishes this page's markup, which the host's server puts into its HTML. */
  prerendered?: boolean;
  /** Rendered per request by the host's server with this query's data. */
  serverData?: ServerDataQuery;
  /** A private page, kept out of search engines (`host/server/robots.ts`). */
  noindex?: boolean;
}

function definitionOf({ validator, ...route }: ComposedRoute): RouteDefinition {
  const data = routeDataOf({ ...route, ...(validator ? { validator } : {}) });
  return {
    ...route,
    ...(validator ? { validate: VALIDATORS[validator] } : {}),
    ...(data ? { data } : {}),
  };
}

export interface RouteMatch {
  route: RouteDefinition;
  params: RouteParams;
}

export class RouteTable {
  readonly routes: readonly RouteDefinition[];
  private readonly matchable: Array<{ path: string; route: RouteDefinition }>;

  constructor(composed: readonly ComposedRoute[]) {
    this.routes = composed.map(definitionOf);
    this.matchable = this.routes.map((route) => ({ path: route.path, route }));
  }

  /** The registry's remotes with their own routes and grants, as their manifests publish them: for tests. */
  static registry(): RouteTable {
    const offers = REMOTE_NAMES.map((remote) => ({
      remote,
      routes: registryRoutes(remote),
      grants: grantsOf({}, remote),
    }));
    return new RouteTable(composeRoutes(offers).routes);
  }

  matchRoute(pathname: string): RouteMatch | undefined {
    // A path that is not valid percent-encoding names no page.
    if (decodePath(pathname) === undefined) return undefined;
    const match = matchRoutes(this.matchable, pathname)?.[0];
    return match ? { route: match.route.route, params: match.params } : undefined;
  }

  resolvePath(pathname: string): RouteMatch | HttpError {
    const match = this.matchRoute(pathname);
    if (!match) return notFoundError(pathname);
    return validationError(match.route, match.params, pathname) ?? match;
  }
}

/** The path as a visitor typed it, for messages; React renders it as text. */
export function displayPath(pathname: string): string {
  return decodePath(pathname) ?? pathname;
}

export function notFoundError(pathname: string): HttpError {
  return new HttpError(404, `Page not found: ${displayPath(pathname)}`);
}

/** The validator's verdict as an error, or undefined when the parameters are acceptable. */
export function validationError(route: RouteDefinition, params: RouteParams, pathname: string): HttpError | undefined {
  if (!route.validate) return undefined;
  const verdict = route.validate(params);
  if (verdict === true) return undefined;
  if (verdict === false) return new HttpError(404, `Page Not Found: ${displayPath(pathname)}`);
  return new HttpError(verdict.statusCode, verdict.message);
}
