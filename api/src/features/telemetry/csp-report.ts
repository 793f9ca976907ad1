/**
 * CSP violation reports in both formats browsers send: the Reporting API's
 * `application/reports+json` (other report types ignored) and the older `application/csp-report`.
 */
import { z } from 'zod';

export interface CspViolation {
  documentUrl: string;
  /** A URL, or a keyword (`inline`, `eval`); empty when the browser gave none. */
  blocked: string;
  directive: string;
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
