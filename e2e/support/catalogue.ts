/**
 * Prize catalogues for the API's PRIZE_CATALOGUE_FILE: one prize whose icon is not bundled, for
 * the tests that need a prize whose icon only the icon service has; the project's own with every
 * stock raised, for long runs of many visitors (chaos, staging).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ROOT_DIR } from './test-env';

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

/** Writes `<dir>/catalogue.json`: api/catalogue.json with every prize's stock `stock`; returns its path. */
export function raisedStockCatalogue(dir: string, stock: number): string {
  const catalogue = JSON.parse(readFileSync(join(ROOT_DIR, 'api', 'catalogue.json'), 'utf8')) as {
    prizes: { stock: number }[];
  };
  for (const prize of catalogue.prizes) prize.stock = stock;
  const file = join(dir, 'catalogue.json');
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, JSON.stringify(catalogue, null, 2));
  return file;
}
