/**
 * The redeem form's values and inline messages. Nothing is flagged before the first submit;
 * after it, a field is checked again when the visitor leaves it, and a fixed field clears at once.
 * The values start from this session's draft, and every change is kept in it.
 */
import { useEffect, useState } from 'react';
import type { CompleteRedeemBody } from 'shared/api/contract';
import { checkEmail } from 'shared/api/email';
import { readDraft, saveDraft } from './redeem-draft';

export const TERMS_MESSAGE = 'Accept the terms to redeem your gift.';

export interface RedeemFormErrors {
  email?: string;
  terms?: string;
}

export type RedeemFormSubmit = { ok: true; body: CompleteRedeemBody } | { ok: false; errors: RedeemFormErrors };

function emailError(email: string): string | undefined {
  const check = checkEmail(email);
  return check.ok ? undefined : check.message;
}

function termsError(accepted: boolean): string | undefined {
  return accepted ? undefined : TERMS_MESSAGE;
}

export function useRedeemForm(redeemId: string) {
  const [email, setEmailValue] = useState(() => readDraft(redeemId)?.email ?? '');
  const [acceptTerms, setAcceptTermsValue] = useState(() => readDraft(redeemId)?.acceptTerms ?? false);
  const [submitted, setSubmitted] = useState(false);
  const [errors, setErrors] = useState<RedeemFormErrors>({});

  useEffect(() => saveDraft(redeemId, { email, acceptTerms }), [redeemId, email, acceptTerms]);

  function setEmail(value: string) {
    setEmailValue(value);
    if (errors.email && !emailError(value)) setErrors((current) => ({ ...current, email: undefined }));
  }

  function checkEmailField() {
    if (submitted) setErrors((current) => ({ ...current, email: emailError(email) }));
  }

  // A checkbox is done with once it is clicked: no need to wait for it to lose focus.
  function setAcceptTerms(accepted: boolean) {
    setAcceptTermsValue(accepted);
    if (submitted) setErrors((current) => ({ ...current, terms: termsError(accepted) }));
  }

  function submit(): RedeemFormSubmit {
    setSubmitted(true);
    const check = checkEmail(email);
    const next = { email: check.ok ? undefined : check.message, terms: termsError(acceptTerms) };
    setErrors(next);
    if (!check.ok || next.terms) return { ok: false, errors: next };
    return { ok: true, body: { email: check.email, acceptTerms } };
  }

  return { email, acceptTerms, errors, setEmail, checkEmailField, setAcceptTerms, submit };
}
