/**
 * Holds a play's outcome back until the picked box has opened, so the animation tells the story
 * before the text does. Visitors who asked for less motion get the outcome at once, and so does
 * a play that is only being shown again (`immediate`: after a reload, or Back).
 */
import { useCallback, useEffect, useState } from 'react';
import type { PlayResult } from 'shared/api/contract';
import { useReducedMotion } from '../../../hooks/use-reduced-motion';

/** Longer than the opening animation: animationend never comes in a hidden tab or without the stylesheet. */
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
