import { useEffect, useRef, type ReactNode } from 'react';

interface ScreenHeadingProps {
  children: ReactNode;
  /** The screen replaced the one the visitor was using: move focus here so it is announced. */
  takeFocus?: boolean;
}

export function ScreenHeading({ children, takeFocus = false }: ScreenHeadingProps) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (takeFocus) ref.current?.focus();
  }, [takeFocus]);
  return (
    <h1 ref={ref} className="p-redeem__title" tabIndex={-1}>
      {children}
    </h1>
  );
}
