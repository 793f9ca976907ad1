/**
 * "The route's page is on screen": the first page of this document (or its error page) has
 * rendered. Speculative work waits for it, so nothing competes with what the visitor asked for:
 * links start prefetching their remotes only then (prefetch-link.tsx). The route's page marks it
 * once it has committed (router/remote-page.tsx), and so does an error page, so prefetching never
 * waits forever.
 */
import { createContext, useContext, useEffect } from 'react';

export interface ContentSignal {
  /** Resolves once the first page has rendered. */
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

/** The document's signal; a test provides its own. */
export const FirstContentContext = createContext<ContentSignal>(createContentSignal());

export function useFirstContent(): Promise<void> {
  return useContext(FirstContentContext).shown;
}

/** Marks the first content shown once the calling component has committed. */
export function useMarkContentShown(): void {
  const signal = useContext(FirstContentContext);
  useEffect(() => signal.markShown(), [signal]);
}

/** For an element that is the route's content, such as its error page: marks it shown. */
export function ContentShown(): null {
  useMarkContentShown();
  return null;
}
