import { useId } from 'react';
import type { VoucherTerms as Terms } from 'shared/api/contract';

/** Where and how to use the voucher, and the prize's conditions; a text the catalogue left empty is left out. */
export function VoucherTerms({ terms }: { terms: Terms }) {
  const id = useId();
  return (
    <>
      {terms.howToUse && (
        <section className="p-redeem__terms" aria-labelledby={`${id}-use`}>
          <h2 id={`${id}-use`} className="p-redeem__subtitle">
            How to use your voucher
          </h2>
          <p>{terms.howToUse}</p>
        </section>
      )}
      {terms.conditions && (
        <section className="p-redeem__terms" aria-labelledby={`${id}-conditions`}>
          <h2 id={`${id}-conditions`} className="p-redeem__subtitle">
            Conditions
          </h2>
          <p>{terms.conditions}</p>
        </section>
      )}
    </>
  );
}
