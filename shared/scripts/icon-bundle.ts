/**
 * The bundle of icons: the named icons cut out of their installed Iconify sets
 * (`@iconify-json/<prefix>`), one trimmed set per prefix.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IconifyJSON } from '@iconify/react/offline';
import { getIcons } from '@iconify/utils';

const SHARED_DIR = join(__dirname, '..');
export const BUNDLE_FILE = join(SHARED_DIR, 'src', 'browser', 'icons', 'bundled-icons.json');
export const REGENERATE = 'npm run icons -w shared';

export interface IconBundle {
  generatedBy: string;
  sets: IconifyJSON[];
}

function splitName(name: string): [prefix: string, icon: string] {
  const match = /^([a-z0-9-]+):([a-z0-9-]+)$/.exec(name);
  if (!match) throw new Error(`"${name}" is not an Iconify icon name such as mdi:coffee`);
  return [match[1] as string, match[2] as string];
}

function loadIconSet(prefix: string): IconifyJSON {
  let file: string;
  try {
    file = require.resolve(`@iconify-json/${prefix}/icons.json`);
  } catch {
    throw new Error(`No icon set for the prefix "${prefix}": add @iconify-json/${prefix} to shared's devDependencies`);
  }
  return JSON.parse(readFileSync(file, 'utf8')) as IconifyJSON;
}

/** One trimmed icon set per prefix, with only the named icons (and the parents of aliases). */
export function buildIconBundle(names: readonly string[]): IconBundle {
  const byPrefix = new Map<string, string[]>();
  for (const name of names) {
    const [prefix, icon] = splitName(name);
    byPrefix.set(prefix, [...(byPrefix.get(prefix) ?? []), icon]);
  }
  const sets = [...byPrefix.keys()].sort().map((prefix) => {
    const icons = byPrefix.get(prefix) ?? [];
    const subset = getIcons(loadIconSet(prefix), icons, true);
    const missing = subset?.not_found ?? (subset ? [] : icons);
    if (missing.length > 0) {
      throw new Error(`Not in @iconify-json/${prefix}: ${missing.map((icon) => `${prefix}:${icon}`).join(', ')}`);
    }
    // Only what rendering needs: a changed date alone must not change the bundle.
    const { not_found: _notFound, lastModified: _lastModified, ...trimmed } = subset as IconifyJSON;
    return trimmed;
  });
  return { generatedBy: REGENERATE, sets };
}

export function serialiseBundle(bundle: IconBundle): string {
  return `${JSON.stringify(bundle, null, 2)}\n`;
}
