/**
 * The reports browsers send on their own when a page's content security policy blocks something
 * (`report-to` / `report-uri`), in either format, as one list of violations:
 * - the Reporting API's `application/reports+json`: a list of reports, the CSP ones
 *   `{ type: "csp-violation", url, body: { documentURL, blockedURL, effectiveDirective, disposition, … } }`
 *   (reports of other types, should an endpoint be shared, are ignored);
 * - the older `application/csp-report`: `{ "csp-report": { "document-uri", "blocked-uri", "effective-directive", … } }`.
 * Fields beyond these are allowed (browsers add their own) and never read.
 */
import { z } from 'zod';

export interface CspViolation {
  /** The page's address: only its route pattern is kept. */
  documentUrl: string;
  /** A URL, or a keyword (`inline`, `eval`); empty when the browser gave none. */
  blocked: string;
  directive: string;
  /** `enforce`, or `report` under a report-only policy. */
  disposition: string;
}

/** One report at most per violation, a handful per body: the body limit bounds them anyway. */
const MAX_REPORTS = 100;
const CSP_VIOLATION = 'csp-violation';

const reportingApiViolation = z.object({
  type: z.literal(CSP_VIOLATION),
  body: z.object({
    documentURL: z.string(),
    blockedURL: z.string().optional(),
    effectiveDirective: z.string(),
    disposition: z.string().optional(),
  }),
});
const otherReport = z.object({ type: z.string().refine((type) => type !== CSP_VIOLATION) });

const legacyReport = z.object({
  'csp-report': z
    .object({
      'document-uri': z.string(),
      'blocked-uri': z.string().optional(),
      'effective-directive': z.string().optional(),
      'violated-directive': z.string().optional(),
      disposition: z.string().optional(),
    })
    .refine((report) => (report['effective-directive'] ?? report['violated-directive']) !== undefined, {
      message: 'a CSP report names its directive',
    }),
});

export const cspReportBodySchema = z.union([
  z
    .array(z.union([reportingApiViolation, otherReport]))
    .min(1)
    .max(MAX_REPORTS),
  legacyReport,
]);
export type CspReportBody = z.infer<typeof cspReportBodySchema>;

/** Content types browsers send the reports with; the legacy format sometimes as plain JSON. */
export const CSP_REPORT_TYPES = ['application/reports+json', 'application/csp-report'] as const;

export function violationsOf(body: CspReportBody): CspViolation[] {
  if (!Array.isArray(body)) {
    const report = body['csp-report'];
    return [
      {
        documentUrl: report['document-uri'],
        blocked: report['blocked-uri'] ?? '',
        directive: report['effective-directive'] ?? report['violated-directive'] ?? '',
        disposition: report.disposition ?? 'enforce',
      },
    ];
  }
  return body.flatMap((report) =>
    'body' in report
      ? [
          {
            documentUrl: report.body.documentURL,
            blocked: report.body.blockedURL ?? '',
            directive: report.body.effectiveDirective,
            disposition: report.body.disposition ?? 'enforce',
          },
        ]
      : [],
  );
}
