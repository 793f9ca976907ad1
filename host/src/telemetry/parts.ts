/**
 * Which part of the page a node belongs to: the remote whose part of the page (the element
 * marked with PART_ATTRIBUTE, router/remote-page.tsx and the server's prerendered frame) holds
 * it, or the host for anything outside every remote's part (the header, the footer, error pages).
 * The parts are the host and the configured remotes, those the host's build never saw among them.
 */
import { HOST_PART, PART_ATTRIBUTE } from 'shared/telemetry-values';

export interface PageParts {
  isPart(value: unknown): value is string;
  partOf(node: Node | null | undefined): string;
}

export function pageParts(remotes: Iterable<string>): PageParts {
  const known = new Set([HOST_PART, ...remotes]);
  const isPart = (value: unknown): value is string => typeof value === 'string' && known.has(value);
  return {
    isPart,
    partOf(node) {
      const element = node instanceof Element ? node : node?.parentElement;
      const part = element?.closest(`[${PART_ATTRIBUTE}]`)?.getAttribute(PART_ATTRIBUTE);
      return isPart(part) ? part : HOST_PART;
    },
  };
}
