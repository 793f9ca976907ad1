interface ShareButtonProps {
  canShare: boolean;
  onShare: () => void;
}

export function ShareButton({ canShare, onShare }: ShareButtonProps) {
  return (
    <button type="button" className="p-button p-gift__share" onClick={onShare}>
      <svg className="p-gift__share-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <path d="M12 3v12M7 8l5-5 5 5M5 14v5a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2v-5" />
      </svg>
      {canShare ? 'Share' : 'Copy link'}
    </button>
  );
}
