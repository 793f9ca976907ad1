/**
 * An Iconify icon by name: bundled ones render at once, others come from the icon service. It
 * always takes its box, so nothing moves when it arrives or never does.
 */
import { Icon as IconifyIcon } from '@iconify/react/offline';
import { useEffect, useSyncExternalStore } from 'react';
// By package name, so the federation runtime gives every remote the host's instance.
import { fallbackIcon, requestIcon, subscribeToIcons, type FallbackIcon } from 'shared/browser/icons/icon-service';
import { isBundledIcon } from './bundled-icons';

export interface IconProps {
  icon: string;
  size: number | string;
  /** Without one the icon is decorative. */
  label?: string;
  className?: string;
}

function useFallbackIcon(name: string, bundled: boolean): FallbackIcon | undefined {
  const snapshot = () => (bundled ? undefined : fallbackIcon(name));
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
  return <IconifyIcon {...box} icon={data} width={size} height={size} aria-hidden={!label} data-state="loaded" />;
}
