/** A prize's value as the redeem pages write it, or nothing when it would only repeat the name. */
import type { PrizeView } from 'shared/api/contract';
import { formatPrizeValue } from 'shared/format';

const sameText = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** "Tote bag" under "Tote bag" tells a visitor nothing: such a label is left out. */
export function prizeValueText(prize: Pick<PrizeView, 'name' | 'value'>): string | undefined {
  const text = formatPrizeValue(prize.value);
  return sameText(text, prize.name) ? undefined : text;
}
