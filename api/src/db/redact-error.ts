/** Strips an error of the values (ids, emails, codes) PGlite and PostgreSQL's detail repeat. */
export const REDACTED = '[redacted]';

const QUOTING_FIELDS = ['message', 'stack', 'where', 'hint', 'internalQuery'] as const;
const VALUE_FIELDS = ['detail'] as const;
const GIVEN_FIELDS = ['params', 'queryOptions'] as const;
// Shorter ones (a status, a count) say nothing.
const MIN_REDACTED_LENGTH = 4;

function redactValues(text: string, values: readonly string[]): string {
  return values.reduce((result, value) => result.split(value).join(REDACTED), text);
}

export function redactDatabaseError(error: unknown, params: readonly unknown[] = []): unknown {
  if (typeof error !== 'object' || error === null) return error;
  const fields = error as Record<string, unknown>;
  const values = params
    .filter((param): param is string => typeof param === 'string' && param.length >= MIN_REDACTED_LENGTH)
    // Longest first, so a value containing another is cut out whole.
    .sort((a, b) => b.length - a.length);
  for (const field of GIVEN_FIELDS) delete fields[field];
  for (const field of VALUE_FIELDS) if (typeof fields[field] === 'string') fields[field] = REDACTED;
  for (const field of QUOTING_FIELDS) {
    const text = fields[field];
    if (typeof text === 'string' && values.length > 0) fields[field] = redactValues(text, values);
  }
  return error;
}
