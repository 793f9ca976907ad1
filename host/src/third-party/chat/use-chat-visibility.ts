import { useEffect } from 'react';
import { chat } from 'shared/chat';

/**
 * A layout says whether the chat bubble belongs on its pages. Each layout asserts its own
 * choice when it mounts, so a client-side navigation between layouts switches it either way;
 * before the widget has loaded the choice is queued and the latest one wins.
 */
export function useChatVisibility(visible: boolean): void {
  useEffect(() => {
    if (visible) chat.show();
    else chat.hide();
  }, [visible]);
}
