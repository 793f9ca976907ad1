/**
 * The gift page's share action. One label and icon whatever the browser offers: the page is
 * rendered on the host's server, which has no share sheet, and the app takes that markup over in
 * the browser, so a label that depended on `navigator.share` would change under a phone's
 * visitor. What pressing it does (share sheet or copy) is `useShareLink`'s.
 */
import { Icon } from 'shared/browser/icons/icon';
import { UI_ICONS } from 'shared/browser/icons/icon-names';

export function ShareButton({ onShare }: { onShare: () => void }) {
  return (
    <button type="button" className="p-button p-gift__share" onClick={onShare}>
      <Icon icon={UI_ICONS.share} size="1.15em" />
      Share link
    </button>
  );
}
