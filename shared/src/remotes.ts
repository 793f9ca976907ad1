/**
 * The registry of remotes, declared once (docs/adding-a-remote.md): ports, routes, `exposes`,
 * scripts, jest projects, lint zones and test servers all derive from it. No DOM, no Node.
 */

export const LAYOUT_NAMES = ['default', 'no-footer', 'redeem'] as const;
export type LayoutName = (typeof LAYOUT_NAMES)[number];

export const VALIDATOR_NAMES = ['giftId', 'redeemId'] as const;
export type ValidatorName = (typeof VALIDATOR_NAMES)[number];

export const SERVER_DATA_QUERIES = ['gift', 'redeem'] as const;
export type ServerDataQuery = (typeof SERVER_DATA_QUERIES)[number];

export interface RouteSpec {
  readonly path: string;
  readonly layout: LayoutName;
  readonly title: string;
  /** Run on the path's parameters before any remote or API request. */
  readonly validator?: ValidatorName;
  /** Markup published at build time and put into the HTML by the host's server. */
  readonly prerendered?: boolean;
  /** Rendered per request on the host's server with this API query's data; in the browser without it. */
  readonly serverData?: ServerDataQuery;
  /** A private page (its link is its key): not indexed, disallowed in robots.txt. */
  readonly noindex?: boolean;
}

export interface ExposedModuleSpec {
  readonly file: string;
  readonly routes: readonly RouteSpec[];
}

export interface RemoteSpec {
  readonly packageDir: string;
  readonly port: number;
  readonly portEnv: string;
  readonly urlEnv: string;
  readonly exposes: Readonly<Record<string, ExposedModuleSpec>>;
}

/** Keyed by the federation container name, also the key in `/config.json`'s `remotes`. */
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

export function remoteSpec(name: string): RemoteSpec | undefined {
  return Object.hasOwn(REMOTES, name) ? REMOTES[name as RemoteName] : undefined;
}

export function webpackExposes(spec: RemoteSpec): Record<string, string> {
  return Object.fromEntries(Object.entries(spec.exposes).map(([module, { file }]) => [`./${module}`, file]));
}

/** `self.webpackChunk<name>`, spelt as webpack's `Template.toIdentifier` spells the remote's uniqueName. */
export function chunkArrayName(remote: string): string {
  return `webpackChunk${remote.replace(/^([^a-z$_])/i, '_$1').replace(/[^a-z0-9$]+/gi, '_')}`;
}
