/**
 * Content-Security-Policy violations as directive and blocked origin (never a path). Once per
 * route per page: a script tripping the policy in a loop would push every other event out.
 */
import type { CspEvent } from 'shared/telemetry';
import { CSP_BLOCKED_KEYWORDS, OTHER } from 'shared/telemetry-values';

/** What a label may hold (the API's contract): an origin such as `http://[::1]:3000` may not. */
const LABEL = /^[A-Za-z0-9._:/-]{1,128}$/;

export function blockedOf(blockedURI: string): string {
  if ((CSP_BLOCKED_KEYWORDS as readonly string[]).includes(blockedURI)) return blockedURI;
  try {
    const { origin } = new URL(blockedURI);
    if (origin !== 'null' && LABEL.test(origin)) return origin;
  } catch {
    // not a URL, nor a keyword we know
  }
  return OTHER;
}

export function directiveOf(effectiveDirective: string): string {
  return LABEL.test(effectiveDirective) ? effectiveDirective : OTHER;
}

export function watchCspViolations(
  target: Pick<Document, 'addEventListener'>,
  currentRoute: () => string,
  record: (event: CspEvent) => void,
): void {
  const seen = new Set<string>();
  target.addEventListener('securitypolicyviolation', (violation) => {
    const event: CspEvent = {
      kind: 'csp',
      route: currentRoute(),
      directive: directiveOf(violation.effectiveDirective),
      blocked: blockedOf(violation.blockedURI),
    };
    const key = `${event.route} ${event.directive} ${event.blocked}`;
    if (seen.has(key)) return;
    seen.add(key);
    record(event);
  });
}
