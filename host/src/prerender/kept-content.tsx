/** The prerendered page kept as nodes, never through HTML again: that could turn text into markup. */
import { useLayoutEffect, useRef } from 'react';

export function keptContent(container: ParentNode): DocumentFragment {
  const fragment = document.createDocumentFragment();
  for (const node of container.querySelector('main')?.childNodes ?? []) fragment.append(node.cloneNode(true));
  return fragment;
}

/** A fresh copy each time, so the kept ones stay as they were. */
export function KeptContent({ content, className }: { content: DocumentFragment; className?: string }) {
  const holder = useRef<HTMLDivElement>(null);
  // Before paint, so the page never shows an empty frame in between.
  useLayoutEffect(() => {
    const element = holder.current;
    if (!element) return;
    element.replaceChildren(content.cloneNode(true));
    return () => element.replaceChildren();
  }, [content]);
  return <div className={className} ref={holder} />;
}
