/** Loads a redeem session (`GET /api/redeems/:redeemId`), and the hook the page renders from. */
import { useCallback, useEffect, useState } from 'react';
import { useApi } from 'shared/api/api-context';
import type { RedeemView } from 'shared/api/contract';
import { HttpError, toHttpError } from 'shared/http-error';

export type RedeemState =
  | { status: 'loading' }
  | { status: 'ready'; redeem: RedeemView }
  /** Trying again may help (API unreachable, 5xx, 429): shown inside the page. */
  | { status: 'failed'; message: string }
  /** A wrong link: thrown, so the host shows its error page with this status. */
  | { status: 'missing'; error: HttpError };

export interface RedeemSession {
  state: RedeemState;
  retry: () => void;
  /** Shows a newer view of the session, without a loading state in between. */
  replace: (redeem: RedeemView) => void;
  /** Asks the API again in the background and shows its answer; undefined if that failed. */
  refresh: () => Promise<RedeemView | undefined>;
}

const LOADING: RedeemState = { status: 'loading' };

export function redeemNotFound(): HttpError {
  return new HttpError(404, 'This redeem session was not found. Check the link, or open your gift again to start a new one.');
}

function failedState(value: unknown): RedeemState {
  const error = toHttpError(value);
  if (error.statusCode >= 500 || error.statusCode === 429 || error.statusCode === 408) {
    return { status: 'failed', message: error.message };
  }
  return { status: 'missing', error: error.statusCode === 404 ? redeemNotFound() : error };
}

export function useRedeem(redeemId: string): RedeemSession {
  const api = useApi();
  const [attempt, setAttempt] = useState(0);
  // Each result remembers which request it answers, so a retry shows loading at once.
  const [result, setResult] = useState<{ key: string; state: RedeemState }>();
  const key = `${redeemId}#${attempt}`;

  useEffect(() => {
    let current = true;
    api.getRedeem(redeemId).then(
      (redeem) => {
        if (current) setResult({ key, state: { status: 'ready', redeem } });
      },
      (error: unknown) => {
        // Unmounted or superseded (StrictMode runs effects twice): nobody is waiting.
        if (!current) return;
        const state = failedState(error);
        if (state.status === 'failed') console.warn('[redeem] the redeem session failed to load', error);
        setResult({ key, state });
      },
    );
    return () => {
      current = false;
    };
  }, [api, redeemId, key]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  const replace = useCallback((redeem: RedeemView) => setResult({ key, state: { status: 'ready', redeem } }), [key]);
  const refresh = useCallback(async () => {
    try {
      const redeem = await api.getRedeem(redeemId);
      replace(redeem);
      return redeem;
    } catch (error) {
      console.warn('[redeem] the redeem session failed to reload', error);
      return undefined;
    }
  }, [api, redeemId, replace]);

  return { state: result?.key === key ? result.state : LOADING, retry, replace, refresh };
}
