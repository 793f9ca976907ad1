/**
 * Copies text with the Clipboard API and says how it went, for a live region to announce:
 * 'copied' for a while, then 'idle' again so a second copy is announced again; 'failed' until
 * the next attempt, for the page to offer copying by hand.
 */
import { useCallback, useEffect, useState } from 'react';

export type CopyStatus = 'idle' | 'copied' | 'failed';

/** Long enough to be read, short enough that a second copy is announced again. */
export const COPIED_FOR_MS = 4000;

export function useCopyToClipboard(copiedForMs: number = COPIED_FOR_MS) {
  const [status, setStatus] = useState<CopyStatus>('idle');

  useEffect(() => {
    if (status !== 'copied') return;
    const timer = setTimeout(() => setStatus('idle'), copiedForMs);
    return () => clearTimeout(timer);
  }, [status, copiedForMs]);

  const copy = useCallback(async (text: string) => {
    try {
      // Missing outside secure contexts (plain http on another host than localhost).
      if (!navigator.clipboard) throw new Error('The Clipboard API is not available');
      await navigator.clipboard.writeText(text);
      setStatus('copied');
    } catch (error) {
      console.warn('Copying to the clipboard failed', error);
      setStatus('failed');
    }
  }, []);

  /** Forgets the last outcome, before another way of sharing is tried. */
  const clear = useCallback(() => setStatus('idle'), []);

  return { status, copy, clear };
}
