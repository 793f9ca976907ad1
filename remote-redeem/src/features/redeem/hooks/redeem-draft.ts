/** The redeem form's draft in session storage, so leaving for the terms and back loses nothing. */
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

// Storage can be missing or refuse: the form works without a draft.
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
