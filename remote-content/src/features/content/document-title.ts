import { useEffect } from 'react';
import { documentTitle } from 'shared/site';

// The host sets the route's title first; the page refines it once its text has loaded.

/** Sets the document title once there is one; undefined leaves the host's title alone. */
export function useDocumentTitle(title: string | undefined): void {
  useEffect(() => {
    if (title) document.title = documentTitle(title);
  }, [title]);
}
