/**
 * An error page's own document title. The frame (router/root-frame.tsx) titles the tab from the
 * matched route; an error shown instead of the route's page puts its own title over that while
 * it is on screen, so a gift that does not exist does not leave "Your gift" in the tab.
 */
import { createContext, useContext, useEffect } from 'react';

export const ErrorTitleContext = createContext<(title: string | undefined) => void>(() => undefined);

export function useErrorTitle(title: string): void {
  const setTitle = useContext(ErrorTitleContext);
  useEffect(() => {
    setTitle(title);
    return () => setTitle(undefined);
  }, [setTitle, title]);
}
