/**
 * Completes a redeem session (`POST /api/redeems/:redeemId/complete`), and the hook the form
 * confirms with: one request at a time, and the same request again on "Try again".
 */
import { useCallback, useRef, useState } from 'react';
import { analytics } from 'shared/analytics';
import { useApi } from 'shared/api/api-context';
import { ApiError } from 'shared/api/client';
import type { CompleteRedeemBody, CompleteRedeemResult } from 'shared/api/contract';
import { errorMessage, toHttpError, type HttpError } from 'shared/http-error';

export type CompleteFailure =
  /** The answer never arrived: the gift may or may not be redeemed, and resending is safe. */
  | { kind: 'unreachable' }
  | { kind: 'rate-limited'; retryAfterSeconds: number | undefined }
  | { kind: 'rejected'; message: string };

export type CompleteState = { status: 'idle' } | { status: 'pending' } | { status: 'failed'; failure: CompleteFailure };

export interface CompleteHandlers {
  onCompleted: (result: CompleteRedeemResult, body: CompleteRedeemBody) => void;
  /** 409 or 410: this session can no longer complete. Resolves true once the page shows why. */
  onClosed: (error: HttpError) => Promise<boolean>;
}

export interface CompleteRedeem {
  state: CompleteState;
  send: (body: CompleteRedeemBody) => Promise<void>;
  /** Sends the last request again, unchanged: the API answers a repeat with the same voucher. */
  retry: () => void;
  /** Forgets a failure, once the visitor changes what they are sending. */
  reset: () => void;
}

const IDLE: CompleteState = { status: 'idle' };
const PENDING: CompleteState = { status: 'pending' };

async function failureOf(value: unknown, onClosed: CompleteHandlers['onClosed']): Promise<CompleteFailure | undefined> {
  const error = toHttpError(value);
  if (error.statusCode === 409 || error.statusCode === 410) {
    return (await onClosed(error)) ? undefined : { kind: 'rejected', message: error.message };
  }
  if (error.statusCode === 429) {
    return { kind: 'rate-limited', retryAfterSeconds: value instanceof ApiError ? value.retryAfterSeconds : undefined };
  }
  if (value instanceof ApiError && value.retryable) return { kind: 'unreachable' };
  return { kind: 'rejected', message: errorMessage(error) };
}

/** `prizeId` only labels the analytics event; neither the redeem id nor the email leaves for analytics. */
export function useCompleteRedeem(redeemId: string, { onCompleted, onClosed }: CompleteHandlers, prizeId: string): CompleteRedeem {
  const api = useApi();
  const [state, setState] = useState<CompleteState>(IDLE);
  // The disabled button only renders after this event; a second click in the same tick must
  // still find the request under way.
  const inFlight = useRef(false);
  const lastBody = useRef<CompleteRedeemBody | undefined>(undefined);

  const send = useCallback(
    async (body: CompleteRedeemBody) => {
      if (inFlight.current) return;
      inFlight.current = true;
      lastBody.current = body;
      setState(PENDING);
      try {
        const result = await api.completeRedeem(redeemId, body);
        setState(IDLE);
        analytics.track({ name: 'Redeem Completed', properties: { prizeId } });
        onCompleted(result, body);
      } catch (error) {
        const failure = await failureOf(error, onClosed);
        setState(failure ? { status: 'failed', failure } : IDLE);
      } finally {
        inFlight.current = false;
      }
    },
    [api, redeemId, prizeId, onCompleted, onClosed],
  );

  const retry = useCallback(() => {
    if (lastBody.current) void send(lastBody.current);
  }, [send]);

  const reset = useCallback(() => setState((current) => (current.status === 'failed' ? IDLE : current)), []);

  return { state, send, retry, reset };
}
