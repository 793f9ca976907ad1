/**
 * The route table: path → remote module and layout, from the routes each remote's entry in the
 * registry (`shared/src/remotes.ts`) declares. Read by the browser router and by the host's
 * server (for HTTP statuses), so it holds data only, no components.
 */
import { matchRoutes } from 'react-router-dom';
import { HttpError } from 'shared/http-error';
import {
  REMOTE_NAMES,
  REMOTES,
  type LayoutName,
  type RemoteModuleName,
  type RemoteName,
  type RemoteSpec,
  type ServerDataQuery,
} from 'shared/remotes';
import { decodePath } from 'shared/url-path';
import { routeDataOf, type RouteData } from './route-data';
import { VALIDATORS, type RouteValidator } from './validators';

export type { LayoutName } from 'shared/remotes';

export type RouteParams = Record<string, string | undefined>;

interface RouteFor<R extends RemoteName> {
  path: string;
  remote: R;
  module: RemoteModuleName<R>;
  layout: LayoutName;
  /** Document title while the route is shown. */
  title: string;
  validate?: RouteValidator;
  /** The API data the page needs, requested together with its code. */
  data?: RouteData;
  /** The remote publishes this page's markup, which the host's server puts into its HTML. */
  prerendered?: boolean;
  /** The host's server renders this page per request with the visitor's data from the API (this query). */
  serverData?: ServerDataQuery;
  /** A private page, kept out of search engines (`host/server/robots.ts`). */
  noindex?: boolean;
}

export type RouteDefinition = { [R in RemoteName]: RouteFor<R> }[RemoteName];

/** Every route of every remote, by path. */
export const ROUTES: readonly RouteDefinition[] = REMOTE_NAMES.flatMap((remote) => {
  const spec: RemoteSpec = REMOTES[remote];
  return Object.entries(spec.exposes).flatMap(([module, { routes }]) => {
    const data = routeDataOf(remote, module);
    return routes.map(
      ({ validator, ...route }) =>
        ({
          ...route,
          remote,
          module,
          ...(validator ? { validate: VALIDATORS[validator] } : {}),
          ...(data ? { data } : {}),
        }) as RouteDefinition,
    );
  });
}).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

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

export interface RouteMatch {
  route: RouteDefinition;
  params: RouteParams;
}

export function matchRoute(pathname: string): RouteMatch | undefined {
  // A path that is not valid percent-encoding names no page.
  if (decodePath(pathname) === undefined) return undefined;
  const matches = matchRoutes(
    ROUTES.map((route) => ({ path: route.path, route })),
    pathname,
  );
  const match = matches?.[0];
  return match ? { route: match.route.route, params: match.params } : undefined;
}

/** What a request for `pathname` resolves to: a route, or the error the page will show. */
export function resolvePath(pathname: string): RouteMatch | HttpError {
  const match = matchRoute(pathname);
  if (!match) return notFoundError(pathname);
  return validationError(match.route, match.params, pathname) ?? match;
}
