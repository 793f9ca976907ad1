import { chat } from 'shared/chat';
import { useChatAvailable } from 'shared/chat/use-chat-available';

/** Opens or closes the live chat; rendered only once a chat widget is configured and connected. */
export function ChatButton() {
  const available = useChatAvailable();
  if (!available) return null;
  return (
    <button type="button" className="p-button" onClick={() => chat.toggle()}>
      Chat with us
    </button>
  );
}
