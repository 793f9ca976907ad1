/** Ratios of the interleaved runs. */

/**
 * federated ÷ monolith: above 1 the federated build needs more. Undefined when either is
 * missing, or when the monolith's is 0 (then the ratio says nothing a reader can use).
 */
export function ratio(federated: number | undefined, monolith: number | undefined): number | undefined {
  if (federated === undefined || monolith === undefined || monolith === 0) return undefined;
  return federated / monolith;
}
