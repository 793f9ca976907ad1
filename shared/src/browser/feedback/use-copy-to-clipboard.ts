/**
 * Copies text and says how it went for a live region: 'copied' for a while, then 'idle' so a second
 * copy is announced again; 'failed' until the next attempt.
 */
import { useCallback, useEffect, useState } from 'react';

export type CopyStatus = 'idle' | 'copied' | 'failed';

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
      // Missing outside secure contexts.
      if (!navigator.clipboard) throw new Error('The Clipboard API is not available');
      await navigator.clipboard.writeText(text);
      setStatus('copied');
    } catch (error) {
      console.warn('Copying to the clipboard failed', error);
      setStatus('failed');
    }
  }, []);

  const clear = useCallback(() => setStatus('idle'), []);

  return { status, copy, clear };
}
