/**
 * useMutation for a POST that goes once per click. `isPending` disables the button, but only
 * from React's next render: a second click in the same tick still finds it enabled. The query
 * client's mutation cache knows at once, so `send` asks it, and does nothing while a mutation
 * with the same key is under way, whichever component started it.
 */
import {
  useMutation,
  useQueryClient,
  type MutationKey,
  type UseMutationOptions,
  type UseMutationResult,
} from '@tanstack/react-query';

export type MutationOnceOptions<TData, TVariables> = UseMutationOptions<TData, Error, TVariables> & {
  mutationKey: MutationKey;
};

export type MutationOnce<TData, TVariables> = UseMutationResult<TData, Error, TVariables> & {
  /** Sends unless one is under way; settles when the mutation does, and never rejects (see `error`). */
  send: (variables: TVariables) => Promise<void>;
};

export function useMutationOnce<TData, TVariables>(
  options: MutationOnceOptions<TData, TVariables>,
): MutationOnce<TData, TVariables> {
  const client = useQueryClient();
  const mutation = useMutation(options);
  const { mutateAsync } = mutation;
  const { mutationKey } = options;

  const send = async (variables: TVariables): Promise<void> => {
    if (client.isMutating({ mutationKey, exact: true }) > 0) return;
    try {
      await mutateAsync(variables);
    } catch {
      // The failure is the mutation's state (`error`); the caller renders from that.
    }
  };

  return { ...mutation, send };
}
