/**
 * One label whatever the browser offers: the page is server-rendered, and a label that depended on
 * `navigator.share` would change under the visitor.
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
