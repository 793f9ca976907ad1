import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { ApiError } from '../../api/client';
import { createTestQueryClient, TestQueryProvider } from '../../testing/query-client';
import { prefetchPageQuery } from './page-prefetch';
import { createQueryClient } from './query-client';

function pageQuery(id: string, request: () => Promise<string>) {
  return queryOptions({ queryKey: ['api', 'things', id], queryFn: request });
}

function mountPage(client: QueryClient, options: ReturnType<typeof pageQuery>) {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <TestQueryProvider client={client}>{children}</TestQueryProvider>
  );
  return renderHook(() => useQuery(options), { wrapper }).result;
}

afterEach(() => jest.useRealTimers());

describe('prefetchPageQuery', () => {
  it('lets the page join the request in flight instead of sending another', async () => {
    const client = createTestQueryClient();
    let answer: (value: string) => void = () => undefined;
    const request = jest.fn(() => new Promise<string>((resolve) => (answer = resolve)));
    void prefetchPageQuery(client, pageQuery('a', request));

    const page = mountPage(client, pageQuery('a', request));
    answer('thing a');
    await waitFor(() => expect(page.current.data).toBe('thing a'));
    expect(request).toHaveBeenCalledTimes(1);
  });

  it('lets the page show an answer that came before it, without asking again', async () => {
    const client = createTestQueryClient();
    const request = jest.fn(async () => 'thing a');
    await prefetchPageQuery(client, pageQuery('a', request));

    const page = mountPage(client, pageQuery('a', request));
    expect(page.current.data).toBe('thing a');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(page.current.isFetching).toBe(false);
    expect(request).toHaveBeenCalledTimes(1);
  });

  it('changes nothing when it fails: it never rejects, and the page asks itself', async () => {
    const client = createTestQueryClient();
    const request = jest.fn().mockRejectedValueOnce(new ApiError(503, 'Down')).mockResolvedValue('thing a');
    await expect(prefetchPageQuery(client, pageQuery('a', request))).resolves.toBeUndefined();

    const page = mountPage(client, pageQuery('a', request));
    await waitFor(() => expect(page.current.data).toBe('thing a'));
    expect(request).toHaveBeenCalledTimes(2);
  });

  it('leaves every other query as it was: a page mounting asks again for its cached answer', async () => {
    const client = createTestQueryClient();
    await prefetchPageQuery(
      client,
      pageQuery('a', async () => 'thing a'),
    );
    client.setQueryData(['api', 'things', 'b'], 'old thing b');
    const request = jest.fn(async () => 'new thing b');

    const page = mountPage(client, pageQuery('b', request));
    await waitFor(() => expect(page.current.data).toBe('new thing b'));
    expect(request).toHaveBeenCalledTimes(1);
  });

  it("follows the page client's retry rule", async () => {
    jest.useFakeTimers();
    const client = createQueryClient();
    const request = jest.fn().mockRejectedValueOnce(new ApiError(503, 'Down')).mockResolvedValue('thing a');
    const done = prefetchPageQuery(client, pageQuery('a', request));

    await jest.advanceTimersByTimeAsync(500);
    await done;
    expect(request).toHaveBeenCalledTimes(2);
    expect(client.getQueryData(['api', 'things', 'a'])).toBe('thing a');
  });
});
