/**
 * A click on a prerendered page's button before the app has taken the page over: the button is
 * the server's markup, with nothing behind it yet. The first such click is kept and, once the
 * app's own markup is in place (the same page, so the same buttons in the same order), made
 * again on the app's button, so a visitor who picks a box early still gets their pick.
 *
 * A press that straddles the takeover (pressed on the server's button, released once the app's is
 * there) makes no click at all: the browser clicks only where a press and its release meet, and
 * the pressed button is gone. Such a press is kept too, and its release clicks the app's button.
 */

/** The buttons a click can be replayed on, in document order: the page's own, inside `main`. */
function buttonsIn(container: HTMLElement): HTMLButtonElement[] {
  return [...container.querySelectorAll<HTMLButtonElement>('main button')];
}

export interface EarlyClicks {
  /** Clicks the app's button that matches the one clicked early, if any; stops listening. */
  replay(): void;
}

interface KeptButton {
  index: number;
  text: string;
}

export function keepEarlyClicks(container: HTMLElement): EarlyClicks {
  let kept: KeptButton | undefined;
  let pressed: KeptButton | undefined;
  const buttonOf = (target: EventTarget | null): KeptButton | undefined => {
    const button = target instanceof Element ? target.closest('button') : null;
    if (!button || !container.contains(button)) return undefined;
    const index = buttonsIn(container).indexOf(button);
    return index >= 0 ? { index, text: button.textContent ?? '' } : undefined;
  };
  const onPress = (event: MouseEvent) => {
    if (!kept) pressed = buttonOf(event.target);
  };
  const onClick = (event: MouseEvent) => {
    if (!kept) kept = buttonOf(event.target);
    pressed = undefined;
  };
  // Only the same button: the app may show something else (the page kept after a failure).
  const clickApp = ({ index, text }: KeptButton) => {
    const button = buttonsIn(container)[index];
    if (button && (button.textContent ?? '') === text && !button.disabled) button.click();
  };
  container.addEventListener('mousedown', onPress, true);
  container.addEventListener('click', onClick, true);
  return {
    replay() {
      container.removeEventListener('mousedown', onPress, true);
      container.removeEventListener('click', onClick, true);
      if (kept) clickApp(kept);
      else if (pressed) {
        const press = pressed;
        container.ownerDocument.addEventListener('mouseup', () => clickApp(press), { capture: true, once: true });
      }
      kept = undefined;
      pressed = undefined;
    },
  };
}
