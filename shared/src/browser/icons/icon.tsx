/**
 * An Iconify icon by name (`mdi:coffee`): a bundled one renders at once; any other comes from
 * the icon service (icon-service.ts). Loaded, loading or failed, it takes exactly the box of
 * its size, so nothing moves when it arrives or when it never does.
 */
import { Icon as IconifyIcon } from '@iconify/react/offline';
import { useEffect, useSyncExternalStore } from 'react';
// By package name, not path: the federation runtime then gives every remote the host's instance.
import { fallbackIcon, requestIcon, subscribeToIcons, type FallbackIcon } from 'shared/browser/icons/icon-service';
import { isBundledIcon } from './bundled-icons';

export interface IconProps {
  /** An Iconify name, `prefix:name`. */
  icon: string;
  /** Width and height: pixels as a number, or any CSS length (`1.25em`). */
  size: number | string;
  /** What the icon means, for an icon that stands alone; without one it is decorative. */
  label?: string;
  className?: string;
}

/** Undefined for a bundled icon, which needs nothing from the service. */
function useFallbackIcon(name: string, bundled: boolean): FallbackIcon | undefined {
  const snapshot = () => (bundled ? undefined : fallbackIcon(name));
  // The same on a server (a page rendered with its data): what the service holds, loading there.
  const state = useSyncExternalStore(subscribeToIcons, snapshot, snapshot);
  useEffect(() => {
    if (!bundled) void requestIcon(name);
  }, [name, bundled]);
  return state;
}

export function Icon({ icon, size, label, className }: IconProps) {
  const bundled = isBundledIcon(icon);
  const fallback = useFallbackIcon(icon, bundled);
  const box = {
    className: ['p-icon', className].filter(Boolean).join(' '),
    style: { display: 'inline-block', flexShrink: 0, width: size, height: size },
    'data-icon': icon,
    ...(label ? { role: 'img', 'aria-label': label } : {}),
  };
  const data = bundled ? icon : fallback?.status === 'loaded' ? fallback.data : undefined;
  if (data === undefined) {
    const state = fallback?.status === 'failed' ? 'failed' : 'loading';
    return <span {...box} aria-hidden={label ? undefined : true} data-state={state} />;
  }
  // Iconify marks its svg aria-hidden unless told otherwise.
  return <IconifyIcon {...box} icon={data} width={size} height={size} aria-hidden={!label} data-state="loaded" />;
}
