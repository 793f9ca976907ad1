import { Fragment, useEffect, useId, useRef } from 'react';
import { useCopyToClipboard } from 'shared/browser/feedback/use-copy-to-clipboard';

const COPY_MESSAGES = {
  idle: '',
  copied: 'Copied',
  failed: 'Copying did not work here. The code is selected: copy it with your keyboard or menu.',
} as const;

/** Each group keeps its dash, so the text is the code. */
export function codeGroups(code: string): string[] {
  return code.match(/[^-]+-?/g) ?? [code];
}

/** On a narrow screen the groups wrap rather than the letters shrinking; a group never breaks. */
export function VoucherCode({ code }: { code: string }) {
  const { status, copy } = useCopyToClipboard();
  const labelId = useId();
  const codeRef = useRef<HTMLElement>(null);

  useEffect(() => {
    // Without the clipboard, selecting the code leaves the visitor one step from copying it.
    if (status !== 'failed' || !codeRef.current) return;
    window.getSelection()?.selectAllChildren(codeRef.current);
  }, [status]);

  return (
    <div className="p-redeem__voucher" role="group" aria-labelledby={labelId}>
      <p id={labelId} className="p-redeem__voucher-label">
        Voucher code
      </p>
      <code ref={codeRef} className="p-redeem__code">
        {codeGroups(code).map((group, index) => (
          <Fragment key={index}>
            {index > 0 && <wbr />}
            <span className="p-redeem__code-group">{group}</span>
          </Fragment>
        ))}
      </code>
      <button type="button" className="p-button p-redeem__copy p-redeem__screen-only" onClick={() => void copy(code)}>
        Copy code
      </button>
      <p className={`p-redeem__copy-status p-redeem__copy-status--${status} p-redeem__screen-only`} role="status">
        {COPY_MESSAGES[status]}
      </p>
    </div>
  );
}
