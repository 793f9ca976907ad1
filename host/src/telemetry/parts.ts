/**
 * Which part of the page a node belongs to: the remote whose part of the page (the element
 * marked with PART_ATTRIBUTE, router/remote-page.tsx and the server's prerendered frame) holds
 * it, or the host for anything outside every remote's part (the header, the footer, error pages).
 */
import { HOST_PART, PART_ATTRIBUTE, PARTS } from 'shared/telemetry-values';

export function isPart(value: unknown): value is string {
  return typeof value === 'string' && (PARTS as readonly string[]).includes(value);
}

export function partOf(node: Node | null | undefined): string {
  const element = node instanceof Element ? node : node?.parentElement;
  const part = element?.closest(`[${PART_ATTRIBUTE}]`)?.getAttribute(PART_ATTRIBUTE);
  return isPart(part) ? part : HOST_PART;
}
