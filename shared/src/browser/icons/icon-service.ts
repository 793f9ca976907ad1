/**
 * Icons not bundled, from the configured Iconify API: asked once per page, cached, drawn only as the
 * sanitiser gives them; a failure leaves an empty box. A singleton, so every remote uses the
 * host's configuration.
 */
import type { IconifyIcon } from '@iconify/react/offline';
import { createListeners } from '../listeners';
import type { IconsConfig } from '../../runtime-config';
import { readCachedIcon, writeCachedIcon } from './icon-cache';
import { ICON_NAME, iconFromSet } from './icon-data';

async function sanitize(body: string): Promise<string | undefined> {
  const { sanitizeSvgBody } = await import(/* webpackChunkName: "svg-sanitizer" */ './sanitize-svg-body');
  return sanitizeSvgBody(body);
}

export type FallbackIcon = { status: 'idle' | 'loading' | 'failed' } | { status: 'loaded'; data: IconifyIcon };

interface Service {
  serviceUrl: string;
  timeoutMs: number;
}

const IDLE: FallbackIcon = { status: 'idle' };
const LOADING: FallbackIcon = { status: 'loading' };
const FAILED: FallbackIcon = { status: 'failed' };

let service: Service | undefined;
/** An answer to an earlier configuration is dropped. */
let generation = 0;
const states = new Map<string, FallbackIcon>();
const listeners = createListeners();

export function configureIconService(config: IconsConfig | undefined): void {
  service = config ? { serviceUrl: config.serviceUrl.replace(/\/+$/, ''), timeoutMs: config.timeoutMs } : undefined;
  generation += 1;
  states.clear();
  listeners.notify();
}

function settle(name: string, state: FallbackIcon): void {
  states.set(name, state);
  listeners.notify();
}

export function subscribeToIcons(listener: () => void): () => void {
  return listeners.subscribe(listener);
}

export function fallbackIcon(name: string): FallbackIcon {
  return states.get(name) ?? IDLE;
}

function reasonOf(error: unknown, timeoutMs: number): string {
  // The DOMException class differs between realms.
  const { name, message } =
    typeof error === 'object' && error !== null ? (error as Error) : { name: '', message: String(error) };
  if (name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  if (name === 'SyntaxError') return 'the answer is not JSON';
  if (name === 'TypeError') return `the icon service could not be reached (${message})`;
  return message;
}

async function fetchIcon(name: string, { serviceUrl, timeoutMs }: Service): Promise<IconifyIcon> {
  const [, prefix, icon] = ICON_NAME.exec(name) ?? [];
  const response = await fetch(`${serviceUrl}/${prefix}.json?icons=${icon}`, {
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!response.ok) throw new Error(`the icon service answered HTTP ${response.status}`);
  const data = iconFromSet(await response.json(), name);
  if (!data) throw new Error('the icon service does not have it');
  return sanitized(data);
}

async function sanitized(data: IconifyIcon): Promise<IconifyIcon> {
  const body = await sanitize(data.body);
  if (body === undefined) throw new Error('nothing drawable is left once its drawing is sanitised');
  return { ...data, body };
}

async function loadCached(name: string, cached: IconifyIcon): Promise<void> {
  const started = generation;
  settle(name, LOADING);
  try {
    const data = await sanitized(cached);
    if (started === generation) settle(name, { status: 'loaded', data });
  } catch (error) {
    if (started === generation) fail(name, `its cached drawing cannot be used: ${(error as Error).message}`);
  }
}

function fail(name: string, reason: string): void {
  console.warn(`Icon "${name}" is shown as an empty box: ${reason}`);
  settle(name, FAILED);
}

export async function requestIcon(name: string): Promise<void> {
  if (fallbackIcon(name).status !== 'idle') return;
  if (!ICON_NAME.test(name)) return fail(name, 'it is not an Iconify icon name such as mdi:coffee');
  const cached = readCachedIcon(name);
  if (cached) return loadCached(name, cached);
  if (!service) return fail(name, 'it is not bundled and no icon service is configured');
  const current = service;
  const started = generation;
  settle(name, LOADING);
  try {
    const data = await fetchIcon(name, current);
    if (started !== generation) return;
    writeCachedIcon(name, data);
    settle(name, { status: 'loaded', data });
  } catch (error) {
    if (started === generation) fail(name, reasonOf(error, current.timeoutMs));
  }
}
