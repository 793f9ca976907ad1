/** The first page (or its error page) has rendered: speculative work waits for it. */
import { createContext, useContext, useEffect } from 'react';

export interface ContentSignal {
  readonly shown: Promise<void>;
  markShown(): void;
}

export function createContentSignal(): ContentSignal {
  let resolve: () => void = () => undefined;
  const shown = new Promise<void>((settle) => {
    resolve = settle;
  });
  return { shown, markShown: () => resolve() };
}

export const FirstContentContext = createContext<ContentSignal>(createContentSignal());

export function useFirstContent(): Promise<void> {
  return useContext(FirstContentContext).shown;
}

/** Marks the first content shown once the calling component has committed. */
export function useMarkContentShown(): void {
  const signal = useContext(FirstContentContext);
  useEffect(() => signal.markShown(), [signal]);
}

/** An error page marks it too, so prefetching never waits forever. */
export function ContentShown(): null {
  useMarkContentShown();
  return null;
}
