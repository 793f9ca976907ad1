/** @jest-environment node */
import { parseRuntimeConfig } from 'shared/runtime-config';
import { everyRemote } from 'shared/testing/runtime-config';
import { RouteTable, type RouteDefinition } from '../src/route-table/route-table';
import { createPageHtml } from './page-html';
import type { RemoteSnapshot } from './remote-snapshot';

const TEMPLATE =
  '<!doctype html><html lang=en><head><meta charset=utf-8><title>Gift Box</title>' +
  '<script defer src=/main.1a2b3c4d.js></script></head>' +
  '<body><div id=root><div class="p-boot" role="progressbar" aria-label="Loading"></div></div>' +
  '<noscript>This site needs JavaScript to run.</noscript></body></html>\n';

const config = parseRuntimeConfig({
  remotes: {
    ...everyRemote(),
    gifts: 'https://gifts.example.com/v2/mf-manifest.json',
    content: 'https://content.example.com/mf-manifest.json',
  },
  apiBaseUrl: 'https://api.example.com',
});

/** A well-formed integrity, different per `seed`. */
const sri = (seed: string) => `sha384-${Buffer.from(seed.padEnd(48, '.')).toString('base64')}`;

function route(path: string): RouteDefinition {
  const found = RouteTable.registry().routes.find((candidate) => candidate.path === path);
  if (!found) throw new Error(`no route ${path}`);
  return found;
}

const gifts: RemoteSnapshot = {
  buildId: 'g1',
  manifestUrl: 'https://gifts.example.com/v2/mf-manifest.json',
  remoteEntry: 'https://gifts.example.com/v2/remoteEntry.js',
  exposes: new Map([
    [
      'GamePage',
      {
        scripts: ['https://gifts.example.com/v2/__federation_expose_GamePage.1.js'],
        sharedScripts: ['https://gifts.example.com/v2/1458.format.js'],
      },
    ],
  ]),
  integrity: new Map([
    ['https://gifts.example.com/v2/remoteEntry.js', sri('entry')],
    ['https://gifts.example.com/v2/__federation_expose_GamePage.1.js', sri('game')],
    ['https://gifts.example.com/v2/1458.format.js', sri('format')],
  ]),
  prerendered: new Map(),
};

const content: RemoteSnapshot = {
  buildId: 'c1',
  manifestUrl: 'https://content.example.com/mf-manifest.json',
  remoteEntry: 'https://content.example.com/remoteEntry.js',
  exposes: new Map([
    [
      'AboutPage',
      {
        scripts: ['https://content.example.com/__federation_expose_AboutPage.2.js'],
        sharedScripts: ['https://content.example.com/478.title.js'],
      },
    ],
  ]),
  integrity: new Map([
    ['https://content.example.com/remoteEntry.js', sri('content entry')],
    ['https://content.example.com/__federation_expose_AboutPage.2.js', sri('about')],
    ['https://content.example.com/478.title.js', sri('title')],
  ]),
  prerendered: new Map([
    [
      'AboutPage',
      {
        buildId: 'c1',
        html: '<article class="p-content"><h1 class="p-content__title">About us</h1><p>We give gifts.</p></article>',
        state: { queries: [{ queryKey: ['content', 'payload', 'about'], state: { data: { title: '</script><b>' } } }] },
      },
    ],
  ]),
  prerenderCss: '.p-content{margin:0}',
};

const snapshots: Partial<Record<string, RemoteSnapshot>> = { gifts, content };
const snapshot = (remote: string) => snapshots[remote];
const render = createPageHtml({ template: TEMPLATE, config, hostCss: '.p-header{display:flex}' });

function headOf(html: string): string {
  return html.slice(0, html.indexOf('</head>'));
}

describe('the page the host sends', () => {
  it('carries the runtime configuration, so the app needs no /config.json round trip', () => {
    const html = render({ pathname: '/game', route: route('/game'), snapshot });
    const inline = /<script type="application\/json" id="gift-box-config">(.*?)<\/script>/.exec(html)?.[1];
    expect(JSON.parse(inline ?? 'null')).toStrictEqual(config);
  });

  it("connects early to the API's origin and the route's remote's, each as it will be used, and to no other remote", () => {
    const head = headOf(render({ pathname: '/game', route: route('/game'), snapshot }));
    // The API with the visitor's cookie; the remote's manifest and scripts with CORS, without.
    expect(head).toContain('<link rel="preconnect" href="https://api.example.com">');
    expect(head).toContain('<link rel="preconnect" href="https://gifts.example.com" crossorigin>');
    expect(head).not.toContain('<link rel="preconnect" href="https://gifts.example.com">');
    // Another remote's page is connected to when a link to it is pointed at.
    const preconnected = [...head.matchAll(/<link rel="preconnect" href="([^"]*)"/g)].map((match) => match[1]);
    expect(preconnected).toEqual(['https://api.example.com', 'https://gifts.example.com']);
  });

  it("preloads the route's remote: its manifest, its entry and the page's own scripts, each with its integrity", () => {
    const head = headOf(render({ pathname: '/game', route: route('/game'), snapshot }));
    expect(head).toContain(
      '<link rel="preload" href="https://gifts.example.com/v2/mf-manifest.json" as="fetch" crossorigin>',
    );
    // With CORS and the integrity the browser's runtime loads them with, or it would fetch them again.
    expect(head).toContain(
      `<link rel="preload" href="https://gifts.example.com/v2/remoteEntry.js" as="script" crossorigin integrity="${sri('entry')}">`,
    );
    expect(head).toContain(
      `<link rel="preload" href="https://gifts.example.com/v2/__federation_expose_GamePage.1.js" as="script" crossorigin integrity="${sri('game')}">`,
    );
    // Nothing of the other remotes: they are not needed for this page.
    expect(head).not.toContain('content.example.com/remoteEntry.js');
  });

  it("preloads the remote's copies of the shared modules its page needs and the host lacks, which the runtime asks for only after the entry ran", () => {
    const head = headOf(render({ pathname: '/game', route: route('/game'), snapshot }));
    expect(head).toContain(
      `<link rel="preload" href="https://gifts.example.com/v2/1458.format.js" as="script" crossorigin integrity="${sri('format')}">`,
    );
  });

  it('preloads no script the manifest gives no integrity for: the browser would refuse to run it', () => {
    const withoutIntegrity = { ...gifts, integrity: new Map([...gifts.integrity].slice(1)) };
    const head = headOf(render({ pathname: '/game', route: route('/game'), snapshot: () => withoutIntegrity }));
    expect(head).not.toContain('remoteEntry.js');
    expect(head).toContain('__federation_expose_GamePage.1.js');
  });

  it('leaves those copies out of a page sent prerendered: its text is on screen already, and they would compete with the first scripts', () => {
    const head = headOf(render({ pathname: '/about', route: route('/about'), snapshot }));
    expect(head).toContain(
      `<link rel="preload" href="https://content.example.com/__federation_expose_AboutPage.2.js" as="script" crossorigin integrity="${sri('about')}">`,
    );
    expect(head).not.toContain('478.title.js');
  });

  it('sends a plain page, without preloads, for a remote not read yet or an unknown path', () => {
    const unread = render({ pathname: '/game', route: route('/game'), snapshot: () => undefined });
    expect(unread).not.toContain('rel="preload"');
    expect(unread).toContain('<div id=root><div class="p-boot"');
    const unknown = render({ pathname: '/nope', route: undefined, snapshot });
    expect(unknown).not.toContain('rel="preload"');
    expect(unknown).toContain('<title>Gift Box</title>');
  });

  it("titles the page as the app will, from the route's title", () => {
    expect(render({ pathname: '/game', route: route('/game'), snapshot })).toContain('<title>Play · Gift Box</title>');
  });

  it('puts a prerendered page inside the host frame, with its styles and data', () => {
    const html = render({ pathname: '/about', route: route('/about'), snapshot });
    const rootStart = html.indexOf('<div id="root" data-prerendered="AboutPage">');
    expect(rootStart).toBeGreaterThan(0);
    const root = html.slice(rootStart);
    // The host's frame (the header with the current page marked, the main region), then the page.
    expect(root).toMatch(/<header class="p-header">.*aria-current="page" class="p-nav__link active" href="\/about"/);
    // The page inside the element that names its remote, as the app marks a remote's part of the page.
    expect(root).toContain(
      '<main id="main" tabindex="-1" class="p-main"><div data-part="content"><article class="p-content">',
    );
    expect(root).toContain('<h1 class="p-content__title">About us</h1>');
    expect(root).toContain('<footer class="p-footer">');
    const head = headOf(html);
    expect(head).toContain('<style>.p-header{display:flex}</style>');
    expect(head).toContain('<style>.p-content{margin:0}</style>');
    // The data, in a form no value can break out of.
    const state = /<script type="application\/json" id="gift-box-prerender-state" data-build="c1">(.*?)<\/script>/.exec(
      html,
    )?.[1];
    expect(state).toContain('\\u003c/script>\\u003cb>');
    expect(JSON.parse(state ?? 'null')).toStrictEqual(content.prerendered.get('AboutPage')?.state);
  });

  it('sends the plain page for a prerendered route whose markup is not there', () => {
    const html = render({
      pathname: '/about',
      route: route('/about'),
      snapshot: () => ({ ...content, prerendered: new Map() }),
    });
    expect(html).not.toContain('data-prerendered');
    expect(html).toContain('<div id=root><div class="p-boot"');
    expect(html).toContain('rel="preload"');
  });
});
