/** The Crisp chatbox as the chat facade's widget, through Crisp's own SDK (`crisp-sdk-web`). */
import type { CrispClass } from 'crisp-sdk-web';
import type { ChatWidget } from 'shared/browser/chat';

/** The part of the SDK's singleton the app uses; tests pass a fake or a fresh `CrispClass`. */
export type CrispSdk = Pick<CrispClass, 'configure' | 'load' | 'createSingletonIfNecessary'> & {
  chat: Pick<CrispClass['chat'], 'show' | 'hide' | 'open' | 'close' | 'onChatOpened' | 'onChatClosed'>;
};

export function crispWidget(crisp: CrispSdk): ChatWidget {
  return {
    show: () => crisp.chat.show(),
    hide: () => crisp.chat.hide(),
    open: () => crisp.chat.open(),
    close: () => crisp.chat.close(),
    // The SDK has no toggle; Crisp's command queue has one, and unlike asking whether the
    // chatbox is open first, it also works before Crisp's script has run.
    toggle: () => {
      crisp.createSingletonIfNecessary();
      window.$crisp.push(['do', 'chat:toggle']);
    },
  };
}
