/**
 * A click on a prerendered button before the app took the page over is made again on the app's
 * button. A press across the takeover makes no click (its button is gone): its release does.
 */

function buttonsIn(container: HTMLElement): HTMLButtonElement[] {
  return [...container.querySelectorAll<HTMLButtonElement>('main button')];
}

export interface EarlyClicks {
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
