/**
 * Shares a gift's address: the system share sheet where there is one, else the clipboard, with
 * feedback. `canShare` is for markup never rendered on a server, which has no share sheet.
 */
import { useCallback } from 'react';
import { useCopyToClipboard } from 'shared/browser/feedback/use-copy-to-clipboard';

/** Cleared after, so copying again is announced again. */
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
