/**
 * A failed statement's error, without the values it was given, before anyone can log it.
 *
 * Those values are ids, emails, voucher codes and visitor hashes, and errors carry them: PGlite
 * attaches the statement's parameters (`params`, `queryOptions`), PostgreSQL's detail repeats
 * the row or the key ("Failing row contains (…)", "Key (voucher_code)=(…) already exists."), and
 * a message or its context may quote the value it could not take. The error keeps its class,
 * SQLSTATE code, constraint, table and SQL text (ours, and what says where it failed), so the
 * code that decides on it (a retry, a lost connection) and whoever reads the log still can.
 */
export const REDACTED = '[redacted]';

/** Fields that may quote a value: what is left of them once every given value is cut out. */
const QUOTING_FIELDS = ['message', 'stack', 'where', 'hint', 'internalQuery'] as const;
/** Fields that are mostly values: dropped whole. */
const VALUE_FIELDS = ['detail'] as const;
/** PGlite's copies of what the statement was given. */
const GIVEN_FIELDS = ['params', 'queryOptions'] as const;
/** Shorter values say nothing about anyone (a status, a count) and cutting them would garble. */
const MIN_REDACTED_LENGTH = 4;

function redactValues(text: string, values: readonly string[]): string {
  return values.reduce((result, value) => result.split(value).join(REDACTED), text);
}

/** Removes what `params` gave from `error` (in place, so its class and code stay); returns it. */
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
