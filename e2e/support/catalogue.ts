/**
 * A prize catalogue of one prize whose icon is not bundled (PRIZE_CATALOGUE_FILE), for the tests
 * that need a prize whose icon only the icon service has.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export const TEST_PRIZE = {
  id: 'rocket-ride',
  name: 'Rocket ride',
  description: 'A ride to the edge of space.',
  value: { label: 'One ride' },
  howToUse: 'Show the code at the launch pad.',
  conditions: 'One ride per code.',
  voucherValidDays: 30,
};

/** Writes `file`: the test prize, with `icon`, `stock` of it, the only prize to win. */
export function writeOnePrizeCatalogue(file: string, icon: string, stock: number): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ prizes: [{ ...TEST_PRIZE, icon, stock, weight: 1 }] }));
}
