/**
 * Icons that are not bundled, from the configured icon service (an Iconify API): asked for once
 * per page however many components show them, with a time limit, kept in the local cache
 * (icon-cache.ts), and a failure only logged: the icon then stays an empty box of its size.
 * Every drawing, fetched or read back from the cache, is drawn as the sanitiser gives it
 * (sanitize-svg-body.ts), loaded only when such an icon is on a page: most pages have none.
 * Shared as a singleton, so the host's configuration is what every remote's icons use.
 */
import type { IconifyIcon } from '@iconify/react/offline';
import { createListeners } from '../listeners';
import type { IconsConfig } from '../../runtime-config';
import { readCachedIcon, writeCachedIcon } from './icon-cache';
import { ICON_NAME, iconFromSet } from './icon-data';

/** The sanitiser and DOMPurify, in a chunk of their own. */
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
/** Bumped by each configuration, so an answer to an earlier one is dropped. */
let generation = 0;
const states = new Map<string, FallbackIcon>();
const listeners = createListeners();

/** Called by the host before its first render; without a configuration no icon is fetched. */
export function configureIconService(config: IconsConfig | undefined): void {
  service = config ? { serviceUrl: config.serviceUrl.replace(/\/+$/, ''), timeoutMs: config.timeoutMs } : undefined;
  generation += 1;
  // Starts afresh: what failed under the previous configuration may load under this one.
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

/** Where a non-bundled icon stands. */
export function fallbackIcon(name: string): FallbackIcon {
  return states.get(name) ?? IDLE;
}

function reasonOf(error: unknown, timeoutMs: number): string {
  // By name: the DOMException class differs between realms (and test environments).
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

/** What is drawn is the sanitiser's output, never the stored or served text. */
async function sanitized(data: IconifyIcon): Promise<IconifyIcon> {
  const body = await sanitize(data.body);
  if (body === undefined) throw new Error('nothing drawable is left once its drawing is sanitised');
  return { ...data, body };
}

/** An icon cached by an earlier visit: drawn without asking the service, once sanitised again. */
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

/**
 * Loads a non-bundled icon unless it is loaded, loading or failed already. Never rejects: a
 * failure is logged once and the icon stays an empty box until the next page load.
 */
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
