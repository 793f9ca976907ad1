/**
 * Whether the chat bubble is on screen: the layout wants it (the redeem layout does not) and
 * nothing has asked to keep it out of the way for now (the consent banner, whose buttons the
 * bubble would otherwise cover on a phone).
 */
import { chat as sharedChat, type Chat } from 'shared/browser/chat';

export interface ChatVisibility {
  /** The layout's choice; before the widget has loaded it is queued and the latest one wins. */
  setLayoutWants(visible: boolean): void;
  /** Keeps the bubble hidden until the returned function is called. */
  cover(): () => void;
}

export function createChatVisibility(chat: Pick<Chat, 'show' | 'hide'> = sharedChat): ChatVisibility {
  let layoutWantsChat = true;
  const coveredBy = new Set<symbol>();
  const apply = () => {
    if (layoutWantsChat && coveredBy.size === 0) chat.show();
    else chat.hide();
  };
  return {
    setLayoutWants(visible) {
      layoutWantsChat = visible;
      apply();
    },
    cover() {
      const token = Symbol('cover');
      coveredBy.add(token);
      apply();
      return () => {
        coveredBy.delete(token);
        apply();
      };
    },
  };
}
