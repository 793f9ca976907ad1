import { chat } from 'shared/browser/chat';
import { useChatAvailable } from 'shared/browser/chat/use-chat-available';
import { useChatOpen } from 'shared/browser/chat/use-chat-open';

/** Opens or closes the live chat; rendered only once a chat widget is configured and connected. */
export function ChatButton() {
  const available = useChatAvailable();
  const open = useChatOpen();
  if (!available) return null;
  return (
    <button type="button" className="p-button" aria-expanded={open} onClick={() => chat.toggle()}>
      Chat with us
    </button>
  );
}
