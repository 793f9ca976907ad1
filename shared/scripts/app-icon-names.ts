/** The icons the app shows: the interface's own and every prize icon of the API's catalogue. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UI_ICONS } from '../src/browser/icons/icon-names';

/** Read as data at build time; the API serves its prizes (and their icon names) from it. */
export const CATALOGUE_FILE = join(__dirname, '..', '..', 'api', 'catalogue.json');

/** Sorted, without duplicates. */
export function appIconNames(catalogueFile = CATALOGUE_FILE): string[] {
  const catalogue = JSON.parse(readFileSync(catalogueFile, 'utf8')) as { prizes?: Array<{ icon?: unknown }> };
  const names = new Set<string>(Object.values(UI_ICONS));
  for (const prize of catalogue.prizes ?? []) {
    if (typeof prize.icon === 'string') names.add(prize.icon);
  }
  return [...names].sort();
}
