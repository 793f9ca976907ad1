/** Medians and ratios of the interleaved runs. */

/** The median of the values (the mean of the middle two for an even count); undefined for none. */
export function median(values: readonly number[]): number | undefined {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return undefined;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/**
 * federated ÷ monolith: above 1 the federated build needs more. Undefined when either is
 * missing, or when the monolith's is 0 (then the ratio says nothing a reader can use).
 */
export function ratio(federated: number | undefined, monolith: number | undefined): number | undefined {
  if (federated === undefined || monolith === undefined || monolith === 0) return undefined;
  return federated / monolith;
}
