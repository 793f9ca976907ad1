/** The page's shape while the gift loads: a closed box and a few lines, so nothing jumps. */
import { GiftBox } from '../../../components/gift-box';

export function GiftSkeleton() {
  return (
    <section className="p-gift" aria-labelledby="p-gift-title" aria-busy="true">
      <div className="p-gift__stage p-gift__skeleton" aria-hidden="true">
        <GiftBox state="shaking" />
      </div>
      <h1 id="p-gift-title" className="p-gift__heading">
        <span className="p-gift__eyebrow">Your gift</span>
      </h1>
      <p className="p-visually-hidden">Loading your gift…</p>
      <div className="p-gift__skeleton" aria-hidden="true">
        <div className="p-gift__skeleton-line p-gift__skeleton-line--title" />
        <div className="p-gift__skeleton-line p-gift__skeleton-line--chip" />
        <div className="p-gift__skeleton-line" />
        <div className="p-gift__skeleton-line p-gift__skeleton-line--short" />
      </div>
    </section>
  );
}
