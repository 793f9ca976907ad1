/** Live chat (Crisp) from the runtime configuration; off, and every `chat` call a no-op, without it. */
import { chat } from 'shared/browser/chat';
import type { ChatConfig } from 'shared/runtime-config';
import { loadCrisp } from './load-crisp';

export function startChat(config: ChatConfig | undefined): void {
  if (!config) {
    chat.disable();
    return;
  }
  // Its own chunk: the SDK is not part of the page's initial JavaScript.
  void loadCrisp(config, { chat, importSdk: () => import(/* webpackChunkName: "crisp" */ 'crisp-sdk-web') });
}
