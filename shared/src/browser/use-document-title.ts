import { useEffect } from 'react';
import { documentTitle } from '../site';

/**
 * The host sets the route's title; a page refines it once it knows more (a prize's name, a
 * payload's title). Undefined leaves the host's title alone.
 */
export function useDocumentTitle(title: string | undefined): void {
  useEffect(() => {
    if (title) document.title = documentTitle(title);
  }, [title]);
}
