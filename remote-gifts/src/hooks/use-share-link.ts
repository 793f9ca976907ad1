/**
 * Shares a gift's address (the page's unless given): the system share sheet where there is one
 * (phones), otherwise a copy to the clipboard, with feedback either way so the visitor knows
 * what happened. `copyLink` copies it whatever the system offers. `canShare` is only for markup
 * that is never rendered on a server (the win card's extra Share button): the host's server has
 * no share sheet, so a page it renders must not change with it.
 */
import { useCallback } from 'react';
import { useCopyToClipboard } from 'shared/browser/feedback/use-copy-to-clipboard';

/** Long enough to read; then cleared, so copying again is announced again. */
const FEEDBACK_MS = 5_000;

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

export function useShareLink(title: string, text: string, link?: string) {
  const canShare = typeof navigator.share === 'function';
  const { status: feedback, copy, clear } = useCopyToClipboard(FEEDBACK_MS);

  const shareLink = useCallback(async () => {
    const url = link ?? window.location.href;
    clear();
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title, text, url });
        return;
      } catch (error) {
        // Closing the share sheet is a choice, not a failure; anything else falls back to copying.
        if (isAbort(error)) return;
      }
    }
    await copy(url);
  }, [title, text, link, clear, copy]);

  const copyLink = useCallback(() => copy(link ?? window.location.href), [link, copy]);

  return { canShare, feedback, shareLink, copyLink };
}
