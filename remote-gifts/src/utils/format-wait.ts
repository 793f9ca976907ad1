/**
 * A wait in seconds as a rough English phrase ("about 3 hours"): Retry-After is precise, but a
 * visitor only needs to know whether to come back soon or later.
 */
const UNITS = [
  { name: 'day', seconds: 86_400, one: 'a day' },
  { name: 'hour', seconds: 3_600, one: 'an hour' },
  { name: 'minute', seconds: 60, one: 'a minute' },
] as const;

export function formatWait(seconds: number): string {
  const unit = UNITS.find((candidate) => seconds >= candidate.seconds);
  if (!unit) return 'a minute';
  const count = Math.round(seconds / unit.seconds);
  return count === 1 ? `about ${unit.one}` : `about ${count} ${unit.name}s`;
}
