import { useSyncExternalStore } from 'react';
import { chat } from './chat';

/** True once the host has connected a chat widget; false while unknown and when chat is off. */
export function useChatAvailable(): boolean {
  return useSyncExternalStore(chat.subscribe, chat.availability, chat.availability) === 'on';
}
