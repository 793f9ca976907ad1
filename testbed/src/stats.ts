/** The figures benches and runs print over repeated measurements. */

const finiteSorted = (values: readonly number[]) =>
  values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);

/** The median of the values (the mean of the middle two for an even count); undefined for none. */
export function median(values: readonly number[]): number | undefined {
  const sorted = finiteSorted(values);
  if (sorted.length === 0) return undefined;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** The nearest-rank percentile of the values, in any order (`p` from 0 to 100); undefined for none. */
export function percentile(values: readonly number[], p: number): number | undefined {
  const sorted = finiteSorted(values);
  if (sorted.length === 0) return undefined;
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1];
}
