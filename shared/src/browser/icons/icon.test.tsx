import { act, render, screen, waitFor } from '@testing-library/react';
import type { IconsConfig } from '../../runtime-config';
import { Icon } from './icon';
import { ICON_CACHE_KEY, ICON_CACHE_MAX_ENTRIES, ICON_CACHE_TTL_HOURS, writeCachedIcon } from './icon-cache';
import { configureIconService } from './icon-service';

const SERVICE: IconsConfig = { serviceUrl: 'https://icons.test/', timeoutMs: 3000 };
const ROCKET_URL = 'https://icons.test/mdi.json?icons=rocket-launch';
const ROCKET_PATH = 'M13.13 22.19L11.5 18.36';
const rocketSet = () => ({
  prefix: 'mdi',
  icons: { 'rocket-launch': { body: `<path fill="currentColor" d="${ROCKET_PATH}"/>` } },
  width: 24,
  height: 24,
});
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

type FetchMock = jest.Mock<Promise<Response>, [RequestInfo | URL, RequestInit?]>;
let fetchMock: FetchMock;
let warn: jest.SpyInstance;
const realFetch = globalThis.fetch;

function answer(reply: (init?: RequestInit) => Response | Promise<Response>): FetchMock {
  fetchMock.mockImplementation(async (_url, init) => reply(init));
  return fetchMock;
}

/** Waits like fetch does for an answer that never comes: until its signal aborts. */
function neverAnswer(): FetchMock {
  fetchMock.mockImplementation(
    (_url, init) =>
      new Promise<Response>((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
      }),
  );
  return fetchMock;
}

const box = (container: HTMLElement) => container.querySelector<HTMLElement>('[data-icon]');
const warnings = () => warn.mock.calls.map(([message]) => String(message));

beforeEach(() => {
  localStorage.clear();
  configureIconService(undefined);
  fetchMock = jest.fn<Promise<Response>, [RequestInfo | URL, RequestInit?]>();
  fetchMock.mockRejectedValue(new Error('fetch called when the test expected none'));
  globalThis.fetch = fetchMock;
  warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(() => {
  globalThis.fetch = realFetch;
  jest.restoreAllMocks();
});

describe('Icon, a bundled icon', () => {
  it('renders its svg in the first render, without asking the icon service', () => {
    configureIconService(SERVICE);
    const { container } = render(<Icon icon="mdi:coffee" size={32} />);

    const svg = container.querySelector('svg');
    expect(svg).not.toBeNull();
    expect(svg?.querySelector('path')?.getAttribute('d')).toMatch(/^M2 21h18/);
    expect(svg).toHaveAttribute('width', '32');
    expect(svg).toHaveAttribute('height', '32');
    expect(svg).toHaveStyle({ width: '32px', height: '32px' });
    expect(svg).toHaveAttribute('data-state', 'loaded');
    expect(fetchMock).not.toHaveBeenCalled();
    expect(warnings()).toEqual([]);
  });

  it('is decorative unless it has a label, then it is an image with that name', () => {
    const { container, rerender } = render(<Icon icon="mdi:coffee" size={24} />);
    expect(container.querySelector('svg')).toHaveAttribute('aria-hidden', 'true');
    expect(screen.queryByRole('img')).toBeNull();

    rerender(<Icon icon="mdi:coffee" size={24} label="Coffee voucher" />);
    expect(screen.getByRole('img', { name: 'Coffee voucher' }).tagName.toLowerCase()).toBe('svg');
    expect(container.querySelector('svg')).not.toHaveAttribute('aria-hidden');
  });
});

describe('Icon, an icon that is not bundled', () => {
  it('without an icon service is an empty box of its size at once, and logs one warning', () => {
    const { container } = render(
      <>
        <Icon icon="mdi:rocket-launch" size={24} />
        <Icon icon="mdi:rocket-launch" size={24} />
      </>,
    );

    const placeholder = box(container);
    expect(placeholder?.tagName.toLowerCase()).toBe('span');
    expect(placeholder).toBeEmptyDOMElement();
    expect(placeholder).toHaveStyle({ width: '24px', height: '24px', display: 'inline-block' });
    expect(placeholder).toHaveAttribute('data-state', 'failed');
    expect(fetchMock).not.toHaveBeenCalled();
    expect(warnings()).toEqual([expect.stringContaining('"mdi:rocket-launch"')]);
  });

  it('asks the service once for all the components that show it, renders it, and caches it', async () => {
    configureIconService(SERVICE);
    answer(() => json(rocketSet()));
    const { container } = render(
      <>
        <Icon icon="mdi:rocket-launch" size={24} />
        <Icon icon="mdi:rocket-launch" size={48} />
      </>,
    );

    await waitFor(() => expect(container.querySelectorAll('svg path')).toHaveLength(2));
    expect(container.querySelector('path')).toHaveAttribute('d', ROCKET_PATH);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe(ROCKET_URL);
    expect(fetchMock.mock.calls[0]?.[1]?.signal).toBeInstanceOf(AbortSignal);
    expect(localStorage.getItem(ICON_CACHE_KEY)).toContain('mdi:rocket-launch');
    expect(warnings()).toEqual([]);
  });

  it('comes from the cache on a later page, without a request, once sanitised again', async () => {
    configureIconService(SERVICE);
    answer(() => json(rocketSet()));
    const first = render(<Icon icon="mdi:rocket-launch" size={24} />);
    await waitFor(() => expect(first.container.querySelector('svg')).not.toBeNull());
    first.unmount();

    // A new page: the service starts afresh, only the browser's storage remains.
    configureIconService(SERVICE);
    fetchMock.mockClear();
    const { container } = render(<Icon icon="mdi:rocket-launch" size={24} />);
    // An empty box of its size until the sanitiser has passed over it: nothing moves.
    expect(box(container)).toHaveStyle({ width: '24px', height: '24px' });
    await waitFor(() => expect(container.querySelector('svg path')).toHaveAttribute('d', ROCKET_PATH));
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('ignores a cache entry stored 168 hours ago or more, and asks the service again', async () => {
    const stale = { body: '<path d="M0 0h1v1z"/>', width: 24, height: 24 };
    writeCachedIcon('mdi:rocket-launch', stale, Date.now() - ICON_CACHE_TTL_HOURS * 60 * 60 * 1000 - 1000);
    configureIconService(SERVICE);
    answer(() => json(rocketSet()));
    const { container } = render(<Icon icon="mdi:rocket-launch" size={24} />);

    expect(box(container)).toHaveAttribute('data-state', 'loading');
    await waitFor(() => expect(container.querySelector('svg path')).toHaveAttribute('d', ROCKET_PATH));
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('keeps at most 50 icons cached: a new one evicts the least recently used', async () => {
    const start = Date.now() - 60_000;
    for (let n = 0; n < ICON_CACHE_MAX_ENTRIES; n++) {
      writeCachedIcon(`mdi:cached-${n}`, { body: `<path d="M${n} 0z"/>` }, start + n);
    }
    configureIconService(SERVICE);
    answer(() => json(rocketSet()));
    const { container } = render(<Icon icon="mdi:rocket-launch" size={24} />);
    await waitFor(() => expect(container.querySelector('svg')).not.toBeNull());

    const { entries } = JSON.parse(localStorage.getItem(ICON_CACHE_KEY) ?? '{}') as {
      entries: Record<string, unknown>;
    };
    expect(Object.keys(entries)).toHaveLength(ICON_CACHE_MAX_ENTRIES);
    expect(entries).toHaveProperty(['mdi:rocket-launch']);
    expect(entries).not.toHaveProperty(['mdi:cached-0']);
    expect(entries).toHaveProperty(['mdi:cached-1']);
  });

  it('keeps the same box while loading and once loaded: nothing moves', async () => {
    configureIconService(SERVICE);
    let reply: (response: Response) => void = () => undefined;
    answer(() => new Promise<Response>((resolve) => (reply = resolve)));
    const { container } = render(<Icon icon="mdi:rocket-launch" size="1.5em" />);

    const placeholder = box(container);
    expect(placeholder).toHaveAttribute('data-state', 'loading');
    expect(placeholder).toHaveStyle({ width: '1.5em', height: '1.5em', display: 'inline-block' });

    await act(async () => reply(json(rocketSet())));
    const svg = container.querySelector('svg');
    expect(svg).toHaveAttribute('data-state', 'loaded');
    expect(svg).toHaveStyle({ width: '1.5em', height: '1.5em', display: 'inline-block' });
    expect(svg).toHaveAttribute('width', '1.5em');
    expect(svg).toHaveAttribute('height', '1.5em');
  });

  it('gives up after the configured timeout: the request is aborted, the box stays empty, one warning', async () => {
    // Below the configuration's 2 s minimum, only so the test does not wait that long.
    configureIconService({ ...SERVICE, timeoutMs: 50 });
    neverAnswer();
    const { container } = render(<Icon icon="mdi:rocket-launch" size={24} />);

    await waitFor(() => expect(box(container)).toHaveAttribute('data-state', 'failed'));
    expect(fetchMock.mock.calls[0]?.[1]?.signal?.aborted).toBe(true);
    expect(box(container)).toHaveStyle({ width: '24px', height: '24px' });
    expect(warnings()).toEqual(['Icon "mdi:rocket-launch" is shown as an empty box: no answer within 50 ms']);
  });

  it('passes the configured timeout to the request signal', async () => {
    const timeout = jest.spyOn(AbortSignal, 'timeout');
    configureIconService({ ...SERVICE, timeoutMs: 2500 });
    answer(() => json(rocketSet()));
    const { container } = render(<Icon icon="mdi:rocket-launch" size={24} />);
    await waitFor(() => expect(container.querySelector('svg')).not.toBeNull());
    expect(timeout).toHaveBeenCalledWith(2500);
  });

  it.each([
    [
      'the service is unreachable',
      () => Promise.reject(new TypeError('Failed to fetch')),
      'the icon service could not be reached',
    ],
    ['the service answers 404', () => json({ message: 'Not found' }, 404), 'HTTP 404'],
    ['the service answers 500', () => new Response('oops', { status: 500 }), 'HTTP 500'],
    [
      'the service does not have the icon',
      () => json({ prefix: 'mdi', icons: {}, not_found: ['rocket-launch'] }),
      'does not have it',
    ],
    ['the answer is not JSON', () => new Response('<html>', { status: 200 }), 'not JSON'],
    [
      'the drawing is nothing but a script',
      () => json({ prefix: 'mdi', icons: { 'rocket-launch': { body: '<image href="x" onerror="window.pwned=1"/>' } } }),
      'nothing drawable is left',
    ],
  ])('is an empty box of its size when %s, and logs it once', async (_what, reply, reason) => {
    configureIconService(SERVICE);
    answer(reply);
    const { container, rerender } = render(<Icon icon="mdi:rocket-launch" size={24} />);

    await waitFor(() => expect(box(container)).toHaveAttribute('data-state', 'failed'));
    rerender(<Icon icon="mdi:rocket-launch" size={24} className="again" />);
    expect(box(container)?.tagName.toLowerCase()).toBe('span');
    expect(box(container)).toBeEmptyDOMElement();
    expect(box(container)).toHaveStyle({ width: '24px', height: '24px' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(warnings()).toEqual([expect.stringMatching(new RegExp(`^Icon "mdi:rocket-launch" .*${reason}`))]);
  });

  it('never asks the service for a name that is not an Iconify name', () => {
    configureIconService(SERVICE);
    const { container } = render(<Icon icon="../../admin" size={24} />);
    expect(box(container)).toHaveAttribute('data-state', 'failed');
    expect(fetchMock).not.toHaveBeenCalled();
    expect(warnings()).toEqual([expect.stringContaining('not an Iconify icon name')]);
  });

  it("draws the sanitiser's output: a script or handler in the service's drawing never reaches the page", async () => {
    configureIconService(SERVICE);
    const body = `<path fill="currentColor" d="${ROCKET_PATH}" onload="window.pwned=1"/><script>window.pwned=1</script>`;
    answer(() => json({ prefix: 'mdi', icons: { 'rocket-launch': { body } }, width: 24, height: 24 }));
    const { container } = render(<Icon icon="mdi:rocket-launch" size={24} />);
    await waitFor(() => expect(container.querySelector(`path[d="${ROCKET_PATH}"]`)).not.toBeNull());
    expect(container.querySelector('[onload], script')).toBeNull();
    // What is cached is the sanitised drawing too.
    expect(localStorage.getItem(ICON_CACHE_KEY)).not.toMatch(/onload|script/);
  });

  it('sanitises a cached drawing again on its way out: what a script wrote into storage is not drawn as it is', async () => {
    localStorage.setItem(
      ICON_CACHE_KEY,
      JSON.stringify({
        version: 3,
        entries: {
          'mdi:rocket-launch': {
            data: { body: `<path d="${ROCKET_PATH}" onload="window.pwned=1"/>` },
            storedAt: Date.now(),
            usedAt: Date.now(),
          },
        },
      }),
    );
    configureIconService(SERVICE);
    const { container } = render(<Icon icon="mdi:rocket-launch" size={24} />);
    await waitFor(() => expect(container.querySelector(`path[d="${ROCKET_PATH}"]`)).not.toBeNull());
    expect(container.querySelector('[onload]')).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('keeps a label on the empty box, so the meaning is not lost', () => {
    render(<Icon icon="mdi:rocket-launch" size={24} label="Rocket" />);
    expect(screen.getByRole('img', { name: 'Rocket' }).tagName.toLowerCase()).toBe('span');
  });
});
