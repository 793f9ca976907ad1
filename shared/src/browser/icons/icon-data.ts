/** One icon out of an Iconify JSON icon set, aliases resolved as Iconify does; malformed: undefined. */
import type { IconifyIcon } from '@iconify/react/offline';

export const ICON_NAME = /^([a-z0-9]+(?:-[a-z0-9]+)*):([a-z0-9]+(?:-[a-z0-9]+)*)$/;

const DIMENSIONS = ['left', 'top', 'width', 'height'] as const;
/** Iconify's own limit. */
const MAX_ALIAS_DEPTH = 5;

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function dimensionsOf(source: JsonObject): Partial<IconifyIcon> {
  const dimensions: Partial<IconifyIcon> = {};
  for (const key of DIMENSIONS) {
    const value = source[key];
    if (typeof value === 'number' && Number.isFinite(value)) dimensions[key] = value;
  }
  return dimensions;
}

export function iconFromSet(set: unknown, name: string): IconifyIcon | undefined {
  const match = ICON_NAME.exec(name);
  if (!match || !isObject(set) || set.prefix !== match[1] || !isObject(set.icons)) return undefined;
  const icons = set.icons;
  const aliases = isObject(set.aliases) ? set.aliases : {};
  // The closest alias wins for dimensions; transformations add up along the chain.
  let overrides: Partial<IconifyIcon> = {};
  let rotate = 0;
  let hFlip = false;
  let vFlip = false;
  let current = match[2] as string;
  for (let depth = 0; depth <= MAX_ALIAS_DEPTH; depth++) {
    const item = Object.hasOwn(icons, current)
      ? icons[current]
      : Object.hasOwn(aliases, current)
        ? aliases[current]
        : undefined;
    if (!isObject(item)) return undefined;
    overrides = { ...dimensionsOf(item), ...overrides };
    rotate += typeof item.rotate === 'number' ? item.rotate : 0;
    hFlip = hFlip !== (item.hFlip === true);
    vFlip = vFlip !== (item.vFlip === true);
    if (typeof item.body === 'string' && Object.hasOwn(icons, current)) {
      return { ...dimensionsOf(set), ...overrides, body: item.body, rotate: rotate % 4, hFlip, vFlip };
    }
    if (typeof item.parent !== 'string') return undefined;
    current = item.parent;
  }
  return undefined;
}
