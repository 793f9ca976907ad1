import { createRequestActivity } from '../browser/api/activity';
import { ApiError, createApiClient } from './client';

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

describe('createApiClient request activity', () => {
  it('counts a request as in flight until its answer has been read', async () => {
    const activity = createRequestActivity();
    let answer: (response: Response) => void = () => undefined;
    const fetchStub = jest.fn(() => new Promise<Response>((resolve) => (answer = resolve)));
    const client = createApiClient({ baseUrl: 'http://api.test', fetch: fetchStub, activity });

    const play = client.play();
    expect(activity.pending()).toBe(1);
    answer(jsonResponse(200, { outcome: 'lose' }));
    await expect(play).resolves.toStrictEqual({ outcome: 'lose' });
    expect(activity.pending()).toBe(0);
  });

  it('ends the activity when the service refuses or cannot be reached', async () => {
    const activity = createRequestActivity();
    const refused = createApiClient({
      baseUrl: 'http://api.test',
      fetch: async () => jsonResponse(404, { statusCode: 404, statusMessage: 'Not Found', message: 'Gift not found' }),
      activity,
    });
    const unreachable = createApiClient({
      baseUrl: 'http://api.test',
      fetch: async () => {
        throw new TypeError('Failed to fetch');
      },
      activity,
    });

    await expect(refused.getGift('x')).rejects.toMatchObject({ statusCode: 404, message: 'Gift not found' });
    await expect(unreachable.getGift('x')).rejects.toBeInstanceOf(ApiError);
    expect(activity.pending()).toBe(0);
  });

  it('counts overlapping requests separately', async () => {
    const activity = createRequestActivity();
    const answers: Array<(response: Response) => void> = [];
    const client = createApiClient({
      baseUrl: 'http://api.test',
      fetch: () => new Promise<Response>((resolve) => answers.push(resolve)),
      activity,
    });

    const first = client.getRedeem('a');
    const second = client.getRedeem('b');
    expect(activity.pending()).toBe(2);
    answers[0]?.(jsonResponse(200, {}));
    await first;
    expect(activity.pending()).toBe(1);
    answers[1]?.(jsonResponse(500, { message: 'down' }));
    await expect(second).rejects.toMatchObject({ statusCode: 500, retryable: true });
    expect(activity.pending()).toBe(0);
  });
});

describe('createApiClient failures', () => {
  it('tells a request that timed out from one that could not connect', async () => {
    const timedOut = createApiClient({
      baseUrl: 'http://api.test',
      timeoutMs: 10,
      fetch: (_url, init) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
        }),
    });
    const refused = createApiClient({
      baseUrl: 'http://api.test',
      fetch: async () => {
        throw new TypeError('Failed to fetch');
      },
    });

    await expect(timedOut.getGift('x')).rejects.toMatchObject({ statusCode: 503, retryable: true, timedOut: true });
    await expect(refused.getGift('x')).rejects.toMatchObject({ statusCode: 503, retryable: true, timedOut: false });
  });
});

describe('createApiClient plays', () => {
  it('sends the idempotency key of a play in its header, and none without one', async () => {
    const fetchStub = jest.fn(async (_url: string, _init?: RequestInit) => jsonResponse(200, { outcome: 'lose' }));
    const client = createApiClient({ baseUrl: 'http://api.test/', fetch: fetchStub as unknown as typeof fetch });
    await client.play('k3y-0f-a-play-0001');
    await client.play();
    const [keyed, plain] = fetchStub.mock.calls;
    expect(keyed?.[0]).toBe('http://api.test/api/game/plays');
    expect(keyed?.[1]?.headers).toMatchObject({
      'idempotency-key': 'k3y-0f-a-play-0001',
      'content-type': 'application/json',
    });
    expect(plain?.[1]?.headers).not.toHaveProperty('idempotency-key');
  });

  it("asks for the visitor's gifts with the visitor's cookie", async () => {
    const fetchStub = jest.fn(async (_url: string, _init?: RequestInit) => jsonResponse(200, { gifts: [] }));
    const client = createApiClient({ baseUrl: 'http://api.test', fetch: fetchStub as unknown as typeof fetch });
    await expect(client.visitorGifts()).resolves.toStrictEqual({ gifts: [] });
    expect(fetchStub.mock.calls[0]?.[0]).toBe('http://api.test/api/visitor/gifts');
    expect(fetchStub.mock.calls[0]?.[1]).toMatchObject({ method: 'GET', credentials: 'include' });
  });
});
