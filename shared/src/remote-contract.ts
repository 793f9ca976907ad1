import type { ComponentType } from 'react';

/** The names the host may load: `{remote}/{exposed module}`. Remotes expose exactly these. */
export const REMOTE_MODULES = {
  content: ['HomePage', 'AboutPage', 'PrivacyPolicyPage', 'TermsPage'],
  gifts: ['GamePage', 'GiftPage'],
  redeem: ['RedeemPage'],
} as const;

export type RemoteName = keyof typeof REMOTE_MODULES;
export type RemoteModuleName<R extends RemoteName = RemoteName> = (typeof REMOTE_MODULES)[R][number];

export const REMOTE_NAMES = Object.keys(REMOTE_MODULES) as RemoteName[];

/**
 * Every exposed page is a module whose default export is a component without required props.
 * Pages read route parameters with react-router's hooks: the router is a shared singleton.
 */
export interface RemotePageModule {
  default: ComponentType;
}
