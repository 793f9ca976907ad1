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
          I accept the <Link to="/terms">terms</Link>
        </label>
      </div>
      <FieldError id={errorId} message={error} />
    </div>
  );
}
