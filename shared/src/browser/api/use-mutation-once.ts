/**
 * useMutation for a POST that goes once per click: `isPending` disables the button only from the
 * next render, so `send` asks the mutation cache, which knows at once.
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
  /** Never rejects: the failure is `error`. */
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
