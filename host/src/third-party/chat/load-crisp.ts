/**
 * Loads Crisp and connects it to the chat facade. The SDK is fetched only when chat is
 * configured; Crisp's loader script comes from the configured URL (Crisp's own by default), so
 * tests and self-hosting can point it elsewhere. If either cannot load, chat goes off with a
 * warning and the page carries on.
 */
import type { Chat } from 'shared/browser/chat';
import type { ChatConfig } from 'shared/runtime-config';
import { CRISP_SCRIPT_URL } from '../third-party-addresses';
import { crispWidget, type CrispSdk } from './crisp-widget';

export { CRISP_SCRIPT_URL };

export interface CrispDeps {
  chat: Chat;
  importSdk: () => Promise<{ Crisp: CrispSdk }>;
}

/** The SDK appends the script itself and reports nothing; its element's error event tells. */
function onScriptError(url: string, handler: () => void): void {
  const script = Array.from(document.getElementsByTagName('script')).find(
    (element) => element.getAttribute('src') === url,
  );
  script?.addEventListener('error', handler, { once: true });
}

export async function loadCrisp(config: ChatConfig, deps: CrispDeps): Promise<void> {
  const turnOff = (...reason: unknown[]) => {
    console.warn('Live chat is off:', ...reason);
    deps.chat.disable();
  };
  let sdk: { Crisp: CrispSdk };
  try {
    sdk = await deps.importSdk();
  } catch (error) {
    turnOff('the Crisp SDK did not load', error);
    return;
  }
  const { Crisp } = sdk;
  const scriptUrl = config.scriptUrl ?? CRISP_SCRIPT_URL;
  try {
    Crisp.configure(config.crispWebsiteId, { autoload: false, clientUrl: scriptUrl });
    Crisp.load();
    onScriptError(scriptUrl, () => turnOff(`Crisp's script did not load from ${scriptUrl}`));
    // Hidden until a layout asks for it. The layout's own show or hide follows (replayed from
    // the facade's queue or called later), all before Crisp's script runs, so a page whose
    // layout is still loading, and the redeem page above all, never flashes the bubble.
    Crisp.chat.hide();
    // Crisp says when its window opens or closes, whoever opened it (our button or its bubble);
    // listening before the queued commands are replayed hears their effect too.
    Crisp.chat.onChatOpened(() => deps.chat.reportOpen(true));
    Crisp.chat.onChatClosed(() => deps.chat.reportOpen(false));
    deps.chat.connect(crispWidget(Crisp));
  } catch (error) {
    turnOff('Crisp could not start', error);
  }
}
