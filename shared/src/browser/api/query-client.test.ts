import { onlineManager } from '@tanstack/react-query';
import { ApiError } from '../../api/client';
import { createQueryClient } from './query-client';

/** A request that fails with each given status in turn, then answers "ok". */
function failingWith(...failures: ApiError[]) {
  return jest.fn(async () => {
    const failure = failures.shift();
    if (failure) throw failure;
    return 'ok';
  });
}

beforeEach(() => jest.useFakeTimers());
afterEach(() => {
  jest.useRealTimers();
  onlineManager.setOnline(true);
});

describe('the page’s query client', () => {
  it('retries a load that failed with 503 after 500 ms and 1 s, then succeeds', async () => {
    const client = createQueryClient();
    const request = failingWith(new ApiError(503, 'down'), new ApiError(503, 'down'));
    const loaded = client.fetchQuery({ queryKey: ['a'], queryFn: request });

    await jest.advanceTimersByTimeAsync(0);
    expect(request).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(499);
    expect(request).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(request).toHaveBeenCalledTimes(2);
    await jest.advanceTimersByTimeAsync(1000);
    await expect(loaded).resolves.toBe('ok');
    expect(request).toHaveBeenCalledTimes(3);
  });

  it('gives up after two retries, with the last failure', async () => {
    const client = createQueryClient();
    const request = failingWith(
      new ApiError(502, 'one'),
      new ApiError(504, 'two'),
      new ApiError(503, 'three'),
      new ApiError(503, 'four'),
    );
    const loaded = client.fetchQuery({ queryKey: ['b'], queryFn: request });
    const settled = expect(loaded).rejects.toMatchObject({ statusCode: 503, message: 'three' });

    await jest.advanceTimersByTimeAsync(10_000);
    await settled;
    expect(request).toHaveBeenCalledTimes(3);
  });

  it.each([400, 403, 404, 409, 410])('does not retry a load that failed with %i', async (status) => {
    const client = createQueryClient();
    const request = failingWith(new ApiError(status, 'no'));
    const settled = expect(client.fetchQuery({ queryKey: ['c', status], queryFn: request })).rejects.toMatchObject({
      statusCode: status,
    });

    await jest.advanceTimersByTimeAsync(10_000);
    await settled;
    expect(request).toHaveBeenCalledTimes(1);
  });

  it('waits as long as Retry-After says', async () => {
    const client = createQueryClient();
    const request = failingWith(new ApiError(429, 'slow down', { retryAfterSeconds: 3 }));
    const loaded = client.fetchQuery({ queryKey: ['d'], queryFn: request });

    await jest.advanceTimersByTimeAsync(2_999);
    expect(request).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(1);
    await expect(loaded).resolves.toBe('ok');
    expect(request).toHaveBeenCalledTimes(2);
  });

  it('never sends a mutation twice by itself, even after a retryable failure', async () => {
    const client = createQueryClient();
    const send = failingWith(new ApiError(503, 'down'));
    const settled = expect(
      client.getMutationCache().build(client, { mutationFn: send }).execute(undefined),
    ).rejects.toMatchObject({ statusCode: 503 });

    await jest.advanceTimersByTimeAsync(10_000);
    await settled;
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('sends while the browser says it is offline: the failure is shown, not a silent wait', async () => {
    onlineManager.setOnline(false);
    const client = createQueryClient();
    const request = jest.fn(async () => 'ok');
    const loaded = client.fetchQuery({ queryKey: ['e'], queryFn: request });

    await jest.advanceTimersByTimeAsync(0);
    await expect(loaded).resolves.toBe('ok');
    expect(request).toHaveBeenCalledTimes(1);
  });
});
