interface RedeemButtonProps {
  pending: boolean;
  /** The last attempt failed in a way that trying again can fix. */
  retry: boolean;
  onRedeem: () => void;
}

/** Disabled while a session is being opened: one click, one session request. */
export function RedeemButton({ pending, retry, onRedeem }: RedeemButtonProps) {
  return (
    <button
      type="button"
      className="p-button p-button--primary p-gift__redeem"
      disabled={pending}
      aria-busy={pending || undefined}
      onClick={onRedeem}
    >
      {pending ? 'Opening…' : retry ? 'Try again' : 'Redeem'}
    </button>
  );
}
