/**
 * The seed's route table: path → remote module and layout. Read by the browser router and by
 * the host's server (for HTTP statuses), so it holds data only, no components.
 */
import { matchRoutes } from 'react-router-dom';
import { HttpError } from 'shared/http-error';
import type { RemoteModuleName, RemoteName } from 'shared/remote-contract';
import { decodePath } from 'shared/url-path';
import { giftIdValidator, redeemIdValidator, type RouteValidator } from './validators';

export type LayoutName = 'default' | 'no-footer' | 'redeem';

export type RouteParams = Record<string, string | undefined>;

interface RouteFor<R extends RemoteName> {
  path: string;
  remote: R;
  module: RemoteModuleName<R>;
  layout: LayoutName;
  /** Document title while the route is shown. */
  title: string;
  validate?: RouteValidator;
}

export type RouteDefinition = { [R in RemoteName]: RouteFor<R> }[RemoteName];

export const ROUTES: readonly RouteDefinition[] = [
  { path: '/', remote: 'content', module: 'HomePage', layout: 'default', title: 'Gift Box' },
  { path: '/about', remote: 'content', module: 'AboutPage', layout: 'default', title: 'About' },
  { path: '/game', remote: 'gifts', module: 'GamePage', layout: 'default', title: 'Play' },
  {
    path: '/gifts/:giftId',
    remote: 'gifts',
    module: 'GiftPage',
    layout: 'no-footer',
    title: 'Your gift',
    validate: giftIdValidator,
  },
  { path: '/privacy-policy', remote: 'content', module: 'PrivacyPolicyPage', layout: 'default', title: 'Privacy policy' },
  {
    path: '/redeem/:redeemId',
    remote: 'redeem',
    module: 'RedeemPage',
    layout: 'redeem',
    title: 'Redeem',
    validate: redeemIdValidator,
  },
  { path: '/terms', remote: 'content', module: 'TermsPage', layout: 'default', title: 'Terms' },
];

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
