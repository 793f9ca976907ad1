/**
 * The icons built into the app (bundled-icons.json, written by `npm run icons -w shared`),
 * registered with Iconify when this module loads, so they render at once and are never fetched.
 */
import { addCollection, type IconifyJSON } from '@iconify/react/offline';
import bundle from './bundled-icons.json';

const names = new Set<string>();

for (const set of bundle.sets as IconifyJSON[]) {
  addCollection(set);
  for (const icon of [...Object.keys(set.icons), ...Object.keys(set.aliases ?? {})]) names.add(`${set.prefix}:${icon}`);
}

export function isBundledIcon(name: string): boolean {
  return names.has(name);
}

export function bundledIconNames(): string[] {
  return [...names].sort();
}
