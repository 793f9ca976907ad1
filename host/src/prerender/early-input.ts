/**
 * What a visitor types into a prerendered page's form before the app has taken the page over:
 * the fields are the server's markup, replaced by the app's when it renders the same page. The
 * values typed (and boxes ticked) are kept by the field's name and, once the app's own fields are
 * in place, put into them as typing would (an `input` event, so the page's own state follows),
 * with the caret back in the field the visitor was in. A password is never kept.
 */

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

interface KeptField {
  value: string;
  checked: boolean;
}

const FIELDS = 'main input[name], main textarea[name], main select[name]';

function isField(target: EventTarget | null): target is Field {
  return (
    (target instanceof HTMLInputElement && target.type !== 'password' && target.type !== 'file') ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement
  );
}

/** Sets a field's value as the browser does when typing, so React's own setter sees a change. */
function setAsTyped(field: Field, kept: KeptField): void {
  const checkable = field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio');
  if (checkable) {
    if (field.checked !== kept.checked) field.click();
    return;
  }
  const prototype = Object.getPrototypeOf(field) as object;
  const setter = Object.getOwnPropertyDescriptor(prototype, 'value')?.set;
  if (field.value === kept.value || !setter) return;
  setter.call(field, kept.value);
  field.dispatchEvent(new Event('input', { bubbles: true }));
  field.dispatchEvent(new Event('change', { bubbles: true }));
}

export interface EarlyInput {
  /** Puts what was typed into the app's fields of the same names; stops listening. */
  replay(): void;
}

export function keepEarlyInput(container: HTMLElement): EarlyInput {
  const kept = new Map<string, KeptField>();
  let focused: { name: string; start: number | null; end: number | null } | undefined;
  const fieldOf = (target: EventTarget | null) =>
    isField(target) && target.name && container.contains(target) && target.matches(FIELDS) ? target : undefined;
  const noteCaret = (field: Field) => {
    const caret = field instanceof HTMLSelectElement ? undefined : field;
    focused = { name: field.name, start: caret?.selectionStart ?? null, end: caret?.selectionEnd ?? null };
  };
  const onInput = (event: Event) => {
    const field = fieldOf(event.target);
    if (!field) return;
    const checked = field instanceof HTMLInputElement && field.checked;
    kept.set(field.name, { value: field.value, checked });
    if (document.activeElement === field) noteCaret(field);
  };
  const onFocusIn = (event: Event) => {
    const field = fieldOf(event.target);
    if (field) noteCaret(field);
    else focused = undefined;
  };
  // Focus left a field for nothing (a click on the page): no caret to give back. A field removed
  // by the app's render is not left by the visitor.
  const onFocusOut = (event: FocusEvent) => {
    const field = fieldOf(event.target);
    if (field && event.relatedTarget === null && field.isConnected) {
      queueMicrotask(() => {
        if (field.isConnected && document.activeElement !== field && focused?.name === field.name) focused = undefined;
      });
    }
  };
  const listeners = [
    ['input', onInput],
    ['change', onInput],
    ['focusin', onFocusIn],
    ['focusout', onFocusOut],
  ] as const;
  for (const [type, listener] of listeners) container.addEventListener(type, listener as EventListener, true);
  return {
    replay() {
      for (const [type, listener] of listeners) container.removeEventListener(type, listener as EventListener, true);
      const fields = [...container.querySelectorAll<Field>(FIELDS)];
      for (const [name, value] of kept) {
        const field = fields.find((candidate) => candidate.name === name);
        if (field && isField(field) && !field.disabled) setAsTyped(field, value);
      }
      // The visitor's caret, unless they have moved on to something of the app's already.
      const target = focused && fields.find((candidate) => candidate.name === focused?.name);
      const elsewhere = document.activeElement && document.activeElement !== document.body;
      if (focused && target && !target.disabled && !elsewhere) {
        target.focus();
        if (!(target instanceof HTMLSelectElement) && focused.start !== null && focused.end !== null) {
          try {
            target.setSelectionRange(focused.start, focused.end);
          } catch {
            // An email field has no selection to set: the caret stays where focus put it.
          }
        }
      }
      kept.clear();
      focused = undefined;
    },
  };
}
