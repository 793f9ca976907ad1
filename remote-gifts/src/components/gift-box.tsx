/** The wrapped box both pages draw, in CSS: closed, shaking (waiting), opening, or open. */
import './gift-box.css';

export type GiftBoxState = 'closed' | 'shaking' | 'opening' | 'open';

interface GiftBoxProps {
  state: GiftBoxState;
  /** Wrapping paper: the game's three boxes differ so they can be told apart at a glance. */
  tone?: 1 | 2 | 3;
  /** What rises out once open. */
  contents?: 'prize' | 'empty';
  /** The gift page's unwrap: the lid comes off by itself when the box first appears. */
  unwrap?: boolean;
  className?: string;
}

export function GiftBox({ state, tone = 1, contents = 'empty', unwrap = false, className = '' }: GiftBoxProps) {
  const classes = ['p-box', `p-box--tone-${tone}`, unwrap ? 'p-box--unwrap' : '', className].filter(Boolean).join(' ');
  return (
    // Spans only: the box sits inside a button, which allows phrasing content alone.
    <span className={classes} data-state={state} aria-hidden="true">
      {contents === 'prize' && <span className="p-box__glow" />}
      {contents === 'prize' && (
        <svg className="p-box__item" viewBox="0 0 24 24" focusable="false">
          <path d="M12 1.5l2.9 6.6 7.1.6-5.4 4.7 1.6 7-6.2-3.7-6.2 3.7 1.6-7L2 8.7l7.1-.6z" />
        </svg>
      )}
      <span className="p-box__body" />
      <span className="p-box__lid" />
    </span>
  );
}
