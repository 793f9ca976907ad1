/** Loads a content page's payload at run time, and the hook the page renders from. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { prerenderedData } from 'shared/browser/api/prerendered-state';
import { errorMessage, HttpError } from 'shared/http-error';
import type { ContentPageName } from '../content-pages';
import { isContentPayload, type ContentPayload } from './content-payload';
import { payloadUrl } from './payload-url';

export async function getPayload(page: ContentPageName): Promise<ContentPayload> {
  let response: Response;
  try {
    response = await fetch(payloadUrl(page));
  } catch {
    throw new HttpError(503, 'The page could not be reached. Check your connection and try again.');
  }
  if (!response.ok) {
    const reason = response.status === 404 ? 'The page’s text was not found' : 'The server answered with an error';
    throw new HttpError(response.status, `${reason} (HTTP ${response.status}).`);
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new HttpError(502, 'The page arrived damaged (not valid JSON).');
  }
  if (!isContentPayload(body)) throw new HttpError(502, 'The page arrived damaged (unexpected content).');
  return body;
}

export type PayloadState =
  { status: 'loading' } | { status: 'ready'; payload: ContentPayload } | { status: 'error'; message: string };

export function payloadQueryOptions(page: ContentPageName) {
  const queryKey = ['content', 'payload', page] as const;
  return queryOptions({
    queryKey,
    // A page the host's server prerendered (with this build) starts with the text it shows.
    initialData: () => {
      const prerendered = prerenderedData(queryKey, __BUILD_ID__);
      return isContentPayload(prerendered) ? prerendered : undefined;
    },
    // A payload changes only with a deploy of this remote, which the host's version check turns
    // into a full page load: the text the page started with (prerendered, or fetched once) is
    // never fetched again behind the visitor's back.
    staleTime: Infinity,
    // No abort signal: a page left in the middle of a load lets the answer land in the cache,
    // and StrictMode's second mount waits for the same request instead of sending another.
    queryFn: async () => {
      try {
        return await getPayload(page);
      } catch (error) {
        console.warn(`[content] the "${page}" payload failed to load`, error);
        throw error;
      }
    },
  });
}

export function usePayload(page: ContentPageName): { state: PayloadState; retry: () => void } {
  const query = useQuery(payloadQueryOptions(page));
  const state: PayloadState = query.data
    ? { status: 'ready', payload: query.data }
    : query.isError
      ? { status: 'error', message: errorMessage(query.error) }
      : { status: 'loading' };
  return { state, retry: () => void query.refetch() };
}
