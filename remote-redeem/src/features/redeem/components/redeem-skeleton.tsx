/** Stand-ins for the heading, gift card and form while the session loads, so nothing jumps. */
export function RedeemSkeleton() {
  return (
    <section className="p-redeem" aria-busy="true">
      <span className="p-visually-hidden">Loading your gift…</span>
      <div className="p-redeem__skeleton" aria-hidden="true">
        <div className="p-redeem__skeleton-block p-redeem__skeleton-block--title" />
        <div className="p-redeem__skeleton-block p-redeem__skeleton-block--card" />
        <div className="p-redeem__skeleton-block p-redeem__skeleton-block--field" />
        <div className="p-redeem__skeleton-block p-redeem__skeleton-block--button" />
      </div>
    </section>
  );
}
