/**
 * A click on a prerendered page's button before the app has taken the page over: the button is
 * the server's markup, with nothing behind it yet. The first such click is kept and, once the
 * app's own markup is in place (the same page, so the same buttons in the same order), made
 * again on the app's button, so a visitor who picks a box early still gets their pick.
 */

/** The buttons a click can be replayed on, in document order: the page's own, inside `main`. */
function buttonsIn(container: HTMLElement): HTMLButtonElement[] {
  return [...container.querySelectorAll<HTMLButtonElement>('main button')];
}

export interface EarlyClicks {
  /** Clicks the app's button that matches the one clicked early, if any; stops listening. */
  replay(): void;
}

export function keepEarlyClicks(container: HTMLElement): EarlyClicks {
  let kept: { index: number; text: string } | undefined;
  const onClick = (event: MouseEvent) => {
    if (kept || !(event.target instanceof Element)) return;
    const button = event.target.closest('button');
    if (!button || !container.contains(button)) return;
    const index = buttonsIn(container).indexOf(button);
    if (index >= 0) kept = { index, text: button.textContent ?? '' };
  };
  container.addEventListener('click', onClick, true);
  return {
    replay() {
      container.removeEventListener('click', onClick, true);
      if (!kept) return;
      const button = buttonsIn(container)[kept.index];
      // Only the same button: the app may show something else (the page kept after a failure).
      if (button && (button.textContent ?? '') === kept.text && !button.disabled) button.click();
      kept = undefined;
    },
  };
}
