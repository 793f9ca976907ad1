/**
 * A won gift's own address, on screen with Copy and (where the system has a share sheet) Share:
 * the link is the gift, so the visitor can keep it or pass it on.
 */
import { useId } from 'react';
import { Icon } from 'shared/browser/icons/icon';
import { UI_ICONS } from 'shared/browser/icons/icon-names';
import { useShareLink } from '../../../hooks/use-share-link';

export function GiftLink({ url, prizeName }: { url: string; prizeName: string }) {
  const inputId = useId();
  const {
    canShare,
    feedback: status,
    shareLink,
    copyLink,
  } = useShareLink(`${prizeName} · Gift Box`, `A gift for you: ${prizeName}`, url);

  return (
    <div className="p-game__link">
      <label htmlFor={inputId} className="p-game__link-label">
        Your gift’s link
      </label>
      <input
        id={inputId}
        className="p-game__link-input"
        type="text"
        readOnly
        value={url}
        onFocus={(event) => event.currentTarget.select()}
      />
      <div className="p-game__link-actions">
        <button type="button" className="p-button" onClick={() => void copyLink()}>
          <Icon icon={UI_ICONS.copyLink} size="1.15em" />
          Copy link
        </button>
        {canShare && (
          <button type="button" className="p-button" onClick={() => void shareLink()}>
            <Icon icon={UI_ICONS.share} size="1.15em" />
            Share
          </button>
        )}
      </div>
      <p className="p-game__link-feedback" role="status" data-tone={status === 'idle' ? undefined : status}>
        {status === 'copied' && 'Link copied'}
        {status === 'failed' && 'Copy failed: select the link above and copy it'}
      </p>
    </div>
  );
}
