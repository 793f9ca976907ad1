import { useSyncExternalStore } from 'react';
import { chat } from './chat';

/** Whether the chat window is open, for a control that opens and closes it (`aria-expanded`). */
export function useChatOpen(): boolean {
  return useSyncExternalStore(chat.subscribe, chat.isOpen, chat.isOpen);
}
