import { useEffect } from 'react';
import { useThirdParties } from '../third-parties-context';

/**
 * A layout says whether the chat bubble belongs on its pages. Each layout asserts its own
 * choice when it mounts, so a client-side navigation between layouts switches it either way.
 */
export function useChatVisibility(visible: boolean): void {
  const { chatVisibility } = useThirdParties();
  useEffect(() => {
    chatVisibility.setLayoutWants(visible);
  }, [chatVisibility, visible]);
}

/** Keeps the bubble hidden while `active` (something of the host's own sits where it would). */
export function useChatOutOfTheWay(active: boolean): void {
  const { chatVisibility } = useThirdParties();
  useEffect(() => (active ? chatVisibility.cover() : undefined), [chatVisibility, active]);
}
