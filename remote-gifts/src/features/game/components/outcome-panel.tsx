import { useEffect, useId, useRef, type ReactNode } from 'react';

interface OutcomePanelProps {
  tone: 'win' | 'lose' | 'over';
  title: string;
  children: ReactNode;
}

/**
 * Where a play ends. It takes the focus: the picked box was disabled under the visitor's
 * focus, and the outcome is what they are waiting to hear.
 */
export function OutcomePanel({ tone, title, children }: OutcomePanelProps) {
  const titleId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  return (
    <section className={`p-game__outcome p-game__outcome--${tone}`} aria-labelledby={titleId}>
      <h2 id={titleId} ref={heading} className="p-game__outcome-title" tabIndex={-1}>
        {title}
      </h2>
      {children}
    </section>
  );
}
