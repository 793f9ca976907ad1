/**
 * The browser's client for the backend API: one place for the base URL, credentials (the
 * visitor cookie), timeouts and turning every failure into an HttpError with the API's status
 * and message. Whether a failure is retryable is the one rule in retry-rule.ts.
 */
import { HttpError } from '../http-error';
import type { RequestActivity } from '../browser/api/activity';
import type {
  ApiErrorBody,
  CompleteRedeemBody,
  CompleteRedeemResult,
  GiftView,
  OpenRedeemResult,
  PlayResult,
  RedeemView,
  VisitorGifts,
} from './contract';
import { API_PATHS, IDEMPOTENCY_KEY_HEADER } from './contract-values';
import { isRetryableStatus } from './retry-rule';

export const DEFAULT_API_TIMEOUT_MS = 15_000;

export class ApiError extends HttpError {
  /** Seconds to wait before trying again, from the answer's Retry-After (a 429's, a 503's). */
  readonly retryAfterSeconds: number | undefined;
  /** Trying the same request again may succeed (network failure, timeout, 408, 429 or 5xx). */
  readonly retryable: boolean;
  /** No answer came within the client's timeout: the visitor has already waited that long. */
  readonly timedOut: boolean;

  constructor(
    statusCode: number,
    message: string,
    options: { statusMessage?: string; retryAfterSeconds?: number; timedOut?: boolean } = {},
  ) {
    super(statusCode, message, options.statusMessage);
    this.name = 'ApiError';
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.retryable = isRetryableStatus(statusCode);
    this.timedOut = options.timedOut ?? false;
  }
}

export interface ApiClient {
  /** One play; repeated with the same key, the same play (its first answer, nothing spent). */
  play(idempotencyKey?: string): Promise<PlayResult>;
  /** The gifts this browser won or redeemed, newest first. */
  visitorGifts(): Promise<VisitorGifts>;
  getGift(giftId: string): Promise<GiftView>;
  openRedeem(giftId: string): Promise<OpenRedeemResult>;
  getRedeem(redeemId: string): Promise<RedeemView>;
  completeRedeem(redeemId: string, body: CompleteRedeemBody): Promise<CompleteRedeemResult>;
}

export interface ApiClientOptions {
  baseUrl: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** Told when each request starts and settles (the host's progress bar). */
  activity?: Pick<RequestActivity, 'begin'>;
}

function isErrorBody(value: unknown): value is ApiErrorBody {
  return typeof value === 'object' && value !== null && typeof (value as ApiErrorBody).message === 'string';
}

async function errorFrom(response: Response): Promise<ApiError> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  const retryAfter = Number(response.headers.get('retry-after'));
  const options = {
    statusMessage: isErrorBody(body) ? body.statusMessage : undefined,
    retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
  };
  const message = isErrorBody(body) ? body.message : `The service answered HTTP ${response.status}.`;
  return new ApiError(response.status, message, options);
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? DEFAULT_API_TIMEOUT_MS;

  async function request<T>(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<T> {
    const end = options.activity?.begin();
    try {
      return await send<T>(method, path, body, headers);
    } finally {
      end?.();
    }
  }

  async function send<T>(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    headers: Record<string, string>,
  ): Promise<T> {
    const fetchImpl = options.fetch ?? globalThis.fetch;
    let response: Response;
    try {
      response = await fetchImpl(`${baseUrl}${path}`, {
        method,
        credentials: 'include',
        headers: {
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      // AbortSignal.timeout's DOMException (not always an `Error` instance across realms).
      const timedOut = typeof error === 'object' && error !== null && 'name' in error && error.name === 'TimeoutError';
      throw new ApiError(503, 'The service could not be reached. Check your connection and try again.', { timedOut });
    }
    if (!response.ok) throw await errorFrom(response);
    try {
      // Typed by the contract's schemas, not checked against them: the API writes every answer
      // from them (shared/api/contract), and checking here too would put the schemas and more of
      // zod in the host's main.js, 2.7 kB gzip more on every page.
      return (await response.json()) as T;
    } catch {
      throw new ApiError(502, 'The service sent an answer that could not be read.');
    }
  }

  return {
    play: (idempotencyKey) =>
      request('POST', API_PATHS.plays, {}, idempotencyKey ? { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey } : {}),
    visitorGifts: () => request('GET', API_PATHS.visitorGifts),
    getGift: (giftId) => request('GET', API_PATHS.gift(giftId)),
    openRedeem: (giftId) => request('POST', API_PATHS.giftRedeems(giftId), {}),
    getRedeem: (redeemId) => request('GET', API_PATHS.redeem(redeemId)),
    completeRedeem: (redeemId, body) => request('POST', API_PATHS.completeRedeem(redeemId), body),
  };
}
