import { Icon } from 'shared/browser/icons/icon';

/** The prize's icon on a tinted tile; its size comes from the tile's font size (the CSS). */
export function GiftIcon({ icon }: { icon: string }) {
  return (
    <span className="p-redeem__gift-icon">
      <Icon icon={icon} size="1em" />
    </span>
  );
}
