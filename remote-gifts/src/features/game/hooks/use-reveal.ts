/**
 * Holds a play's outcome back until its box has opened; at once for reduced motion and for a play
 * shown again.
 */
import { useCallback, useEffect, useState } from 'react';
import type { PlayResult } from 'shared/api/contract';
import { useReducedMotion } from '../../../hooks/use-reduced-motion';

/** animationend never comes in a hidden tab or without the stylesheet. */
export const REVEAL_FALLBACK_MS = 1_000;

export function useReveal(result: PlayResult | undefined, immediate = false) {
  const reducedMotion = useReducedMotion();
  const [revealedFor, setRevealedFor] = useState<PlayResult>();
  const opening = result !== undefined && !reducedMotion && !immediate && revealedFor !== result;

  useEffect(() => {
    if (!opening) return;
    const timer = setTimeout(() => setRevealedFor(result), REVEAL_FALLBACK_MS);
    return () => clearTimeout(timer);
  }, [opening, result]);

  const onOpened = useCallback(() => setRevealedFor(result), [result]);

  return { opening, revealed: result !== undefined && !opening, onOpened };
}
