/** Anything a page or browser could make up ends as `other`. */
import { CSP_BLOCKED_KEYWORDS, CSP_DIRECTIVES, OTHER } from 'shared/telemetry';

const DIRECTIVES: ReadonlySet<string> = new Set(CSP_DIRECTIVES);
const KEYWORDS: ReadonlySet<string> = new Set(CSP_BLOCKED_KEYWORDS);
// Older formats report the whole URL (`data:…`).
const SCHEME_KEYWORDS: Readonly<Record<string, string>> = { 'data:': 'data', 'blob:': 'blob' };

export type KnownOrigin = (origin: string) => boolean;

export function directiveLabel(directive: string): string {
  // Older browsers report the directive with its sources ("script-src 'self'").
  const name = directive.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
  return DIRECTIVES.has(name) ? name : OTHER;
}

export function blockedOf(blocked: string): string {
  const value = blocked.trim();
  if (KEYWORDS.has(value.toLowerCase())) return value.toLowerCase();
  try {
    const url = new URL(value);
    return SCHEME_KEYWORDS[url.protocol] ?? url.origin;
  } catch {
    return OTHER;
  }
}

export function blockedLabel(blocked: string, known: KnownOrigin): string {
  const value = blockedOf(blocked);
  if (KEYWORDS.has(value)) return value;
  return value !== 'null' && value !== OTHER && known(value) ? value : OTHER;
}
