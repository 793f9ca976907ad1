/**
 * The prerendered page as the browser parsed it from the host's server (which sanitised its
 * markup), kept as nodes: should its remote fail to load, the route's error shows it again
 * (errors/route-error.tsx). Copied node by node, never serialised to HTML and parsed again: a
 * round trip through HTML can turn text into markup (mutation XSS), and nothing here needs it.
 */
import { useLayoutEffect, useRef } from 'react';

/** A copy of what the page's main region holds now. */
export function keptContent(container: ParentNode): DocumentFragment {
  const fragment = document.createDocumentFragment();
  for (const node of container.querySelector('main')?.childNodes ?? []) fragment.append(node.cloneNode(true));
  return fragment;
}

/** The kept nodes, shown read-only: a fresh copy each time, so the kept ones stay as they were. */
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
