/**
 * What a matched route carries from the table to the components around its page: the root
 * frame reads the title, the error page the remote to retry.
 */
import { useMatches } from 'react-router-dom';
import type { RouteDefinition } from './route-table';

export type RouteHandle = Partial<Pick<RouteDefinition, 'title' | 'remote'>>;

/** The handle of the deepest matched route: the page on screen. */
export function useRouteHandle(): RouteHandle | undefined {
  return useMatches().at(-1)?.handle as RouteHandle | undefined;
}
