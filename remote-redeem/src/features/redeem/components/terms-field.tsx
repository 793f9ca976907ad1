import { useId, type Ref } from 'react';
import { Link } from 'react-router-dom';
import { FieldError } from './field-error';

interface TermsFieldProps {
  checked: boolean;
  error: string | undefined;
  onChange: (checked: boolean) => void;
  ref: Ref<HTMLInputElement>;
}

export function TermsField({ checked, error, onChange, ref }: TermsFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const newTabId = `${id}-new-tab`;
  return (
    <div className="p-redeem__field">
      <div className="p-redeem__check">
        <input
          ref={ref}
          id={id}
          className="p-redeem__checkbox"
          type="checkbox"
          name="acceptTerms"
          required
          checked={checked}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(event) => onChange(event.target.checked)}
        />
        <label htmlFor={id}>
          I accept the {/* A new tab: reading the terms does not take the visitor away from what they typed. */}
          <Link to="/terms" target="_blank" rel="noopener" aria-describedby={newTabId}>
            terms
            <span className="p-redeem__new-tab" aria-hidden="true">
              ↗
            </span>
          </Link>
        </label>
        <span id={newTabId} hidden>
          Opens in a new tab
        </span>
      </div>
      <FieldError id={errorId} message={error} />
    </div>
  );
}
