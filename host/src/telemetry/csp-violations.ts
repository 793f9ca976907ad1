/**
 * The page's Content-Security-Policy violations (`securitypolicyviolation` events), as the
 * directive and what it blocked: the blocked URL's origin (never its path or query) or the
 * browser's keyword for what is not a URL (`inline`, `eval`, …). The API labels a directive or an
 * origin outside its known sets `other`. The same violation on the same route is reported once
 * per page: a script that trips the policy in a loop would otherwise push every other event out
 * of the queue.
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
