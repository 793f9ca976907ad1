/** Completes a redeem session: one request at a time, the same one again on "Try again". */
import { useState } from 'react';
import { analytics } from 'shared/browser/analytics';
import { useApi } from 'shared/browser/api/api-context';
import { toApiFailure } from 'shared/api/api-failure';
import type { ApiClient } from 'shared/api/client';
import type { CompleteRedeemBody, CompleteRedeemResult } from 'shared/api/contract';
import { useMutationOnce } from 'shared/browser/api/use-mutation-once';
import { toHttpError, type HttpError } from 'shared/http-error';

export type CompleteFailure =
  /** The answer never arrived: resending is safe. */
  | { kind: 'unreachable' }
  | { kind: 'rate-limited'; retryAfterSeconds: number | undefined }
  | { kind: 'rejected'; message: string };

export type CompleteState = { status: 'idle' } | { status: 'pending' } | { status: 'failed'; failure: CompleteFailure };

export interface CompleteHandlers {
  onCompleted: (result: CompleteRedeemResult, body: CompleteRedeemBody) => void;
  onClosed: (error: HttpError) => Promise<boolean>;
}

export interface CompleteRedeem {
  state: CompleteState;
  send: (body: CompleteRedeemBody) => Promise<void>;
  /** The API answers a repeat with the same voucher. */
  retry: () => void;
  reset: () => void;
}

const IDLE: CompleteState = { status: 'idle' };
const PENDING: CompleteState = { status: 'pending' };

export function completeRedeemMutationOptions(api: ApiClient, redeemId: string) {
  return {
    mutationKey: ['api', 'redeems', redeemId, 'complete'] as const,
    mutationFn: (body: CompleteRedeemBody) => api.completeRedeem(redeemId, body),
  };
}

async function failureOf(value: unknown, onClosed: CompleteHandlers['onClosed']): Promise<CompleteFailure | undefined> {
  const failure = toApiFailure(value);
  if (failure.statusCode === 409 || failure.statusCode === 410) {
    return (await onClosed(toHttpError(value))) ? undefined : { kind: 'rejected', message: failure.message };
  }
  if (failure.statusCode === 429) return { kind: 'rate-limited', retryAfterSeconds: failure.retryAfterSeconds };
  if (failure.retryable) return { kind: 'unreachable' };
  return { kind: 'rejected', message: failure.message };
}

/** Neither the redeem id nor the email leaves for analytics. */
export function useCompleteRedeem(
  redeemId: string,
  { onCompleted, onClosed }: CompleteHandlers,
  prizeId: string,
): CompleteRedeem {
  const [failure, setFailure] = useState<CompleteFailure>();
  const mutation = useMutationOnce({
    ...completeRedeemMutationOptions(useApi(), redeemId),
    onSuccess: (result, body) => {
      analytics.track({ name: 'Redeem Completed', properties: { prizeId } });
      onCompleted(result, body);
    },
    // Awaited first, so the button stays busy while a refusal is explained.
    onError: async (error) => setFailure(await failureOf(error, onClosed)),
  });

  const send = async (body: CompleteRedeemBody) => {
    if (mutation.isPending) return;
    setFailure(undefined);
    await mutation.send(body);
  };

  const retry = () => {
    if (mutation.variables) void send(mutation.variables);
  };

  const state: CompleteState = mutation.isPending ? PENDING : failure ? { status: 'failed', failure } : IDLE;
  return { state, send, retry, reset: () => setFailure(undefined) };
}
