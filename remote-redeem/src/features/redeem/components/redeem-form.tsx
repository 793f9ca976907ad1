/** The email and terms the API needs, and the one button that redeems the gift. */
import { useRef, type FormEvent } from 'react';
import { useCompleteRedeem, type CompleteHandlers } from '../api/complete-redeem';
import { clearDraft } from '../hooks/redeem-draft';
import { useRedeemForm } from '../hooks/use-redeem-form';
import { ConfirmFailure } from './confirm-failure';
import { EmailField } from './email-field';
import { TermsField } from './terms-field';

interface RedeemFormProps extends CompleteHandlers {
  /** Labels the analytics event only. */
  prizeId: string;
  redeemId: string;
}

export function RedeemForm({ redeemId, prizeId, onCompleted, onClosed }: RedeemFormProps) {
  const form = useRedeemForm(redeemId);
  // Once the session is redeemed or can no longer be, the draft has done its job.
  const confirm = useCompleteRedeem(
    redeemId,
    {
      onCompleted: (result, body) => {
        clearDraft(redeemId);
        onCompleted(result, body);
      },
      onClosed: async (error) => {
        const closed = await onClosed(error);
        if (closed) clearDraft(redeemId);
        return closed;
      },
    },
    prizeId,
  );
  const emailRef = useRef<HTMLInputElement>(null);
  const termsRef = useRef<HTMLInputElement>(null);
  const pending = confirm.state.status === 'pending';

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const outcome = form.submit();
    if (outcome.ok) {
      void confirm.send(outcome.body);
      return;
    }
    (outcome.errors.email ? emailRef : termsRef).current?.focus();
  }

  return (
    // The inline messages replace the browser's own bubbles, which are easy to miss on a phone.
    <form className="p-redeem__form" noValidate onSubmit={onSubmit}>
      <EmailField
        ref={emailRef}
        value={form.email}
        error={form.errors.email}
        onChange={(value) => {
          form.setEmail(value);
          confirm.reset();
        }}
        onBlur={form.checkEmailField}
      />
      <TermsField
        ref={termsRef}
        checked={form.acceptTerms}
        error={form.errors.terms}
        onChange={(checked) => {
          form.setAcceptTerms(checked);
          confirm.reset();
        }}
      />
      {confirm.state.status === 'failed' && <ConfirmFailure failure={confirm.state.failure} onRetry={confirm.retry} />}
      <button
        type="submit"
        className="p-button p-button--primary p-redeem__confirm"
        disabled={pending}
        aria-busy={pending || undefined}
      >
        {pending ? 'Redeeming…' : 'Redeem my gift'}
      </button>
    </form>
  );
}
