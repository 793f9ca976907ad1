import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { TestQueryProvider } from '../../testing/query-client';
import { useMutationOnce } from './use-mutation-once';

function deferred() {
  let resolve: (value: string) => void = () => undefined;
  let reject: (error: Error) => void = () => undefined;
  const promise = new Promise<string>((settle, fail) => {
    resolve = settle;
    reject = fail;
  });
  return { promise, resolve, reject };
}

function renderSender(mutationFn: (word: string) => Promise<string>, key: string = 'say') {
  const wrapper = ({ children }: { children: ReactNode }) => <TestQueryProvider>{children}</TestQueryProvider>;
  return renderHook(() => useMutationOnce({ mutationKey: [key], mutationFn }), { wrapper });
}

describe('useMutationOnce', () => {
  it('sends once for two calls in the same tick, before React has rendered pending', async () => {
    const answer = deferred();
    const mutationFn = jest.fn((_word: string) => answer.promise);
    const { result } = renderSender(mutationFn);

    await act(async () => {
      void result.current.send('hello');
      void result.current.send('hello');
    });
    expect(mutationFn).toHaveBeenCalledTimes(1);
    expect(result.current.isPending).toBe(true);

    await act(async () => answer.resolve('done'));
    expect(result.current.data).toBe('done');
  });

  it('sends again once the first has settled', async () => {
    const mutationFn = jest.fn(async (word: string) => word.toUpperCase());
    const { result } = renderSender(mutationFn);

    await act(() => result.current.send('one'));
    await act(() => result.current.send('two'));

    expect(mutationFn.mock.calls.map(([word]) => word)).toEqual(['one', 'two']);
    expect(result.current.data).toBe('TWO');
  });

  it('never rejects: a failure is the mutation’s error', async () => {
    const { result } = renderSender(async () => {
      throw new Error('refused');
    });

    await act(() => expect(result.current.send('x')).resolves.toBeUndefined());

    expect(result.current.isError).toBe(true);
    expect(result.current.error?.message).toBe('refused');
  });
});
