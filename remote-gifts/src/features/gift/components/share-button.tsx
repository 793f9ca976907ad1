import { Icon } from 'shared/browser/icons/icon';
import { UI_ICONS } from 'shared/browser/icons/icon-names';

interface ShareButtonProps {
  canShare: boolean;
  onShare: () => void;
}

export function ShareButton({ canShare, onShare }: ShareButtonProps) {
  return (
    <button type="button" className="p-button p-gift__share" onClick={onShare}>
      <Icon icon={canShare ? UI_ICONS.share : UI_ICONS.copyLink} size="1.15em" />
      {canShare ? 'Share' : 'Copy link'}
    </button>
  );
}
