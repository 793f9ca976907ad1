/**
 * Shares the page's address: the system share sheet where there is one (phones), otherwise a
 * copy to the clipboard, with feedback either way so the visitor knows what happened.
 */
import { useCallback, useEffect, useState } from 'react';

export type ShareFeedback = 'copied' | 'copy-failed';

/** Long enough to read; then cleared, so copying again is announced again. */
const FEEDBACK_MS = 5_000;

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

export function useShareLink(title: string, text: string) {
  const canShare = typeof navigator.share === 'function';
  const [feedback, setFeedback] = useState<ShareFeedback>();

  useEffect(() => {
    if (feedback !== 'copied') return;
    const timer = setTimeout(() => setFeedback(undefined), FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [feedback]);

  const shareLink = useCallback(async () => {
    const url = window.location.href;
    setFeedback(undefined);
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title, text, url });
        return;
      } catch (error) {
        // Closing the share sheet is a choice, not a failure; anything else falls back to copying.
        if (isAbort(error)) return;
      }
    }
    try {
      // Missing on insecure origins and old browsers: the TypeError lands in the catch.
      await navigator.clipboard.writeText(url);
      setFeedback('copied');
    } catch {
      setFeedback('copy-failed');
    }
  }, [title, text]);

  return { canShare, feedback, shareLink };
}
