import { useId, type Ref } from 'react';
import { FieldError } from './field-error';

interface EmailFieldProps {
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
  onBlur: () => void;
  ref: Ref<HTMLInputElement>;
}

export function EmailField({ value, error, onChange, onBlur, ref }: EmailFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className="p-redeem__field">
      <label className="p-redeem__label" htmlFor={id}>
        Email address
      </label>
      <p id={hintId} className="p-redeem__hint">
        Your voucher is linked to this address.
      </p>
      <input
        ref={ref}
        id={id}
        className="p-redeem__input"
        type="email"
        name="email"
        autoComplete="email"
        inputMode="email"
        autoCapitalize="none"
        spellCheck={false}
        required
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${errorId} ${hintId}` : hintId}
        onChange={(event) => onChange(event.target.value)}
        onBlur={onBlur}
      />
      <FieldError id={errorId} message={error} />
    </div>
  );
}
