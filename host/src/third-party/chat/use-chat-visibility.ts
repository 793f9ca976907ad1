import { useEffect } from 'react';
import { chat } from 'shared/chat';

/**
 * Whether the chat bubble is on screen: the layout wants it (the redeem layout does not) and
 * nothing has asked to keep it out of the way for now (the consent banner, whose buttons the
 * bubble would otherwise cover on a phone).
 */
let layoutWantsChat = true;
const coveredBy = new Set<symbol>();

function apply(): void {
  if (layoutWantsChat && coveredBy.size === 0) chat.show();
  else chat.hide();
}

/**
 * A layout says whether the chat bubble belongs on its pages. Each layout asserts its own
 * choice when it mounts, so a client-side navigation between layouts switches it either way;
 * before the widget has loaded the choice is queued and the latest one wins.
 */
export function useChatVisibility(visible: boolean): void {
  useEffect(() => {
    layoutWantsChat = visible;
    apply();
  }, [visible]);
}

/** Keeps the bubble hidden while `active` (something of the host's own sits where it would). */
export function useChatOutOfTheWay(active: boolean): void {
  useEffect(() => {
    if (!active) return;
    const token = Symbol('cover');
    coveredBy.add(token);
    apply();
    return () => {
      coveredBy.delete(token);
      apply();
    };
  }, [active]);
}
