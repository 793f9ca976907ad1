/** Copies text with the Clipboard API and says how it went, for a live region to announce. */
import { useCallback, useEffect, useState } from 'react';

export type CopyStatus = 'idle' | 'copied' | 'failed';

// Long enough to be read, short enough that a second copy is announced again.
const COPIED_FOR_MS = 4000;

export function useCopyToClipboard(): { status: CopyStatus; copy: (text: string) => Promise<void> } {
  const [status, setStatus] = useState<CopyStatus>('idle');

  useEffect(() => {
    if (status !== 'copied') return;
    const timer = setTimeout(() => setStatus('idle'), COPIED_FOR_MS);
    return () => clearTimeout(timer);
  }, [status]);

  const copy = useCallback(async (text: string) => {
    try {
      // Missing outside secure contexts (plain http on another host than localhost).
      if (!navigator.clipboard) throw new Error('The Clipboard API is not available');
      await navigator.clipboard.writeText(text);
      setStatus('copied');
    } catch (error) {
      console.warn('[redeem] copying the voucher code failed', error);
      setStatus('failed');
    }
  }, []);

  return { status, copy };
}
