import { useEffect, useId, useRef, type ReactNode } from 'react';

interface OutcomePanelProps {
  tone: 'win' | 'lose' | 'over';
  title: string;
  children: ReactNode;
}

/**
 * Where a play ends. It takes the focus: the picked box was disabled under the visitor's
 * focus, and the outcome is what they are waiting to hear. It is scrolled into view whole
 * (from its top when it is taller than the window), so its actions are on screen too.
 */
export function OutcomePanel({ tone, title, children }: OutcomePanelProps) {
  const titleId = useId();
  const panel = useRef<HTMLElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus({ preventScroll: true });
    const element = panel.current;
    const fits = element !== null && element.getBoundingClientRect().height <= window.innerHeight;
    element?.scrollIntoView?.({ block: fits ? 'nearest' : 'start' });
  }, []);

  return (
    <section ref={panel} className={`p-game__outcome p-game__outcome--${tone}`} aria-labelledby={titleId}>
      <h2 id={titleId} ref={heading} className="p-game__outcome-title" tabIndex={-1}>
        {title}
      </h2>
      {children}
    </section>
  );
}
