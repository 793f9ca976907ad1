/**
 * The registry of remotes: every remote the host can load, declared once (docs/adding-a-remote.md).
 * Everything per-remote is derived from it: the runtime configuration's `remotes`, the default
 * ports and the variables that set them, the host's route table, each remote's webpack
 * `exposes` (checked against its files at build time), `npm start` and `npm run dev`, the jest
 * projects, the lint zones and the browser tests' servers. Universal: no DOM, no Node.
 */

/** The host's layouts, by name; the host maps each to its component (`host/src/layouts/layouts.ts`). */
export const LAYOUT_NAMES = ['default', 'no-footer', 'redeem'] as const;
export type LayoutName = (typeof LAYOUT_NAMES)[number];

/** The host's route parameter validators, by name; the host holds their code (`host/src/route-table/validators.ts`). */
export const VALIDATOR_NAMES = ['giftId', 'redeemId'] as const;
export type ValidatorName = (typeof VALIDATOR_NAMES)[number];

/** The API queries a page can be rendered with on the host's server (`shared/browser/api/gift-query`, `…/redeem-query`). */
export const SERVER_DATA_QUERIES = ['gift', 'redeem'] as const;
export type ServerDataQuery = (typeof SERVER_DATA_QUERIES)[number];

export interface RouteSpec {
  /** A react-router path pattern, such as `/gifts/:giftId`. */
  readonly path: string;
  readonly layout: LayoutName;
  /** The document title while the route is shown. */
  readonly title: string;
  /** The validator run on the path's parameters before any remote or API request. */
  readonly validator?: ValidatorName;
  /**
   * The remote publishes this page's markup at build time, with the data it was rendered from
   * (`prerender/{Module}.json`, by its `build/prerender-pages.tsx`), and the host's server puts
   * it into the HTML it sends: the page is on screen before any script runs.
   */
  readonly prerendered?: boolean;
  /**
   * The page is rendered per request on the host's server with the visitor's data from the API
   * (the query named here), by the remote's own code (`prerender/render.js`, by its
   * `build/render-pages.tsx`): the page's text is in the HTML it sends. Without that data (the
   * API down or slow) the page is rendered in the browser, as before.
   */
  readonly serverData?: ServerDataQuery;
  /**
   * A private page: its link is its key. The host's server tells search engines not to index it
   * (`X-Robots-Tag` and a robots meta tag) and its `robots.txt` disallows the path up to the
   * first parameter.
   */
  readonly noindex?: boolean;
}

export interface ExposedModuleSpec {
  /** The module's file, relative to the remote's folder: one file per module, in `src/exposed/`. */
  readonly file: string;
  /** The routes that show this page (none for a module the host does not route to). */
  readonly routes: readonly RouteSpec[];
}

export interface RemoteSpec {
  /** The remote's folder at the repository root, also its package and workspace name. */
  readonly packageDir: string;
  /** The port its servers (development and production) listen on by default… */
  readonly port: number;
  /** …and the variable that moves it. */
  readonly portEnv: string;
  /** The variable that sets its manifest URL in the host's runtime configuration (`remotes.<name>`). */
  readonly urlEnv: string;
  /** What it exposes to the host, by module name: `GamePage` is loaded as `gifts/GamePage`. */
  readonly exposes: Readonly<Record<string, ExposedModuleSpec>>;
}

/** Keyed by the federation container name, which is also the key in `/config.json`'s `remotes`. */
export const REMOTES = {
  gifts: {
    packageDir: 'remote-gifts',
    port: 3001,
    portEnv: 'REMOTE_GIFTS_PORT',
    urlEnv: 'REMOTE_GIFTS_URL',
    exposes: {
      GamePage: {
        file: './src/exposed/game-page.tsx',
        routes: [{ path: '/game', layout: 'default', title: 'Play', prerendered: true }],
      },
      GiftPage: {
        file: './src/exposed/gift-page.tsx',
        routes: [
          {
            path: '/gifts/:giftId',
            layout: 'no-footer',
            title: 'Your gift',
            validator: 'giftId',
            noindex: true,
            serverData: 'gift',
          },
        ],
      },
    },
  },
  redeem: {
    packageDir: 'remote-redeem',
    port: 3002,
    portEnv: 'REMOTE_REDEEM_PORT',
    urlEnv: 'REMOTE_REDEEM_URL',
    exposes: {
      RedeemPage: {
        file: './src/exposed/redeem-page.tsx',
        routes: [
          {
            path: '/redeem/:redeemId',
            layout: 'redeem',
            title: 'Redeem',
            validator: 'redeemId',
            noindex: true,
            serverData: 'redeem',
          },
        ],
      },
    },
  },
  content: {
    packageDir: 'remote-content',
    port: 3003,
    portEnv: 'REMOTE_CONTENT_PORT',
    urlEnv: 'REMOTE_CONTENT_URL',
    exposes: {
      HomePage: {
        file: './src/exposed/home-page.tsx',
        routes: [{ path: '/', layout: 'default', title: 'Gift Box', prerendered: true }],
      },
      AboutPage: {
        file: './src/exposed/about-page.tsx',
        routes: [{ path: '/about', layout: 'default', title: 'About', prerendered: true }],
      },
      PrivacyPolicyPage: {
        file: './src/exposed/privacy-policy-page.tsx',
        routes: [{ path: '/privacy-policy', layout: 'default', title: 'Privacy policy', prerendered: true }],
      },
      TermsPage: {
        file: './src/exposed/terms-page.tsx',
        routes: [{ path: '/terms', layout: 'default', title: 'Terms', prerendered: true }],
      },
    },
  },
} as const satisfies Record<string, RemoteSpec>;

export type RemoteName = keyof typeof REMOTES;
export type RemoteModuleName<R extends RemoteName = RemoteName> = {
  [N in RemoteName]: keyof (typeof REMOTES)[N]['exposes'] & string;
}[R];

export const REMOTE_NAMES = Object.keys(REMOTES) as RemoteName[];

/** The registry entry of `name`, or undefined when no remote has that name. */
export function remoteSpec(name: string): RemoteSpec | undefined {
  return Object.hasOwn(REMOTES, name) ? REMOTES[name as RemoteName] : undefined;
}

/** A remote's webpack `exposes`: `{ './GamePage': './src/exposed/game-page.tsx' }`. */
export function webpackExposes(spec: RemoteSpec): Record<string, string> {
  return Object.fromEntries(Object.entries(spec.exposes).map(([module, { file }]) => [`./${module}`, file]));
}

/**
 * The global array a remote's chunks push themselves onto, `self.webpackChunk<name>`: one for
 * every build of the remote, as its webpack `output.uniqueName` is its name
 * (webpack.config.base.ts), spelt as webpack's `Template.toIdentifier` spells it.
 */
export function chunkArrayName(remote: string): string {
  return `webpackChunk${remote.replace(/^([^a-z$_])/i, '_$1').replace(/[^a-z0-9$]+/gi, '_')}`;
}
