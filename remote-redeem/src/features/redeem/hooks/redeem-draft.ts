/**
 * What the visitor typed in the redeem form, kept in this tab's session storage so that leaving
 * the page (for the terms, say) and coming back loses nothing. One draft at most, for one
 * session, with only the two fields; cleared once the session is redeemed or closed, and gone
 * with the tab.
 */
const KEY = 'p-redeem-draft';

export interface RedeemDraft {
  email: string;
  acceptTerms: boolean;
}

interface StoredDraft extends RedeemDraft {
  redeemId: string;
}

function isStoredDraft(value: unknown): value is StoredDraft {
  const draft = value as Partial<StoredDraft> | null;
  return (
    typeof draft === 'object' &&
    draft !== null &&
    typeof draft.redeemId === 'string' &&
    typeof draft.email === 'string' &&
    typeof draft.acceptTerms === 'boolean'
  );
}

// Storage can be missing or refuse (private modes, full quota): the form works without a draft.
function attempt<T>(action: () => T): T | undefined {
  try {
    return action();
  } catch {
    return undefined;
  }
}

export function readDraft(redeemId: string): RedeemDraft | undefined {
  const stored = attempt(() => JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as unknown);
  if (!isStoredDraft(stored) || stored.redeemId !== redeemId) return undefined;
  return { email: stored.email, acceptTerms: stored.acceptTerms };
}

/** Replaces the draft, whichever session it was of; an empty form leaves none of its own. */
export function saveDraft(redeemId: string, { email, acceptTerms }: RedeemDraft): void {
  if (!email && !acceptTerms) {
    clearDraft(redeemId);
    return;
  }
  const draft: StoredDraft = { redeemId, email, acceptTerms };
  attempt(() => sessionStorage.setItem(KEY, JSON.stringify(draft)));
}

export function clearDraft(redeemId: string): void {
  if (readDraft(redeemId)) attempt(() => sessionStorage.removeItem(KEY));
}
