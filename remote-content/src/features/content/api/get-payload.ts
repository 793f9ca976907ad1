/** Loads a content page's payload at run time, and the hook the page renders from. */
import { useCallback, useEffect, useState } from 'react';
import { errorMessage, HttpError } from 'shared/http-error';
import type { ContentPageName } from '../content-pages';
import { isContentPayload, type ContentPayload } from './content-payload';
import { payloadUrl } from './payload-url';

export async function getPayload(page: ContentPageName, signal?: AbortSignal): Promise<ContentPayload> {
  let response: Response;
  try {
    response = await fetch(payloadUrl(page), { signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new HttpError(503, 'The page could not be reached. Check your connection and try again.');
  }
  if (!response.ok) {
    const reason = response.status === 404 ? 'The page’s text was not found' : 'The server answered with an error';
    throw new HttpError(response.status, `${reason} (HTTP ${response.status}).`);
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new HttpError(502, 'The page arrived damaged (not valid JSON).');
  }
  if (!isContentPayload(body)) throw new HttpError(502, 'The page arrived damaged (unexpected content).');
  return body;
}

export type PayloadState =
  | { status: 'loading' }
  | { status: 'ready'; payload: ContentPayload }
  | { status: 'error'; message: string };

const LOADING: PayloadState = { status: 'loading' };

export function usePayload(page: ContentPageName): { state: PayloadState; retry: () => void } {
  const [attempt, setAttempt] = useState(0);
  // Each result remembers which request it answers, so a retry or another page shows
  // loading at once instead of the previous result.
  const [result, setResult] = useState<{ key: string; state: PayloadState }>();
  const key = `${page}#${attempt}`;

  useEffect(() => {
    const controller = new AbortController();
    getPayload(page, controller.signal).then(
      (payload) => {
        if (!controller.signal.aborted) setResult({ key, state: { status: 'ready', payload } });
      },
      (error: unknown) => {
        // Unmounted or superseded (StrictMode runs effects twice): nobody is waiting.
        if (controller.signal.aborted) return;
        console.warn(`[content] the "${page}" payload failed to load`, error);
        setResult({ key, state: { status: 'error', message: errorMessage(error) } });
      },
    );
    return () => controller.abort();
  }, [page, key]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { state: result?.key === key ? result.state : LOADING, retry };
}
