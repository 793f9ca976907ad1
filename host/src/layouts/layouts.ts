import type { ComponentType } from 'react';
import type { LayoutName } from 'shared/remotes';
import { RedeemLayout } from './redeem-layout';
import { DefaultLayout, NoFooterLayout } from './site-layout';

/** The layouts the registry's routes name (`shared/src/remotes.ts`), by name. */
export const LAYOUTS: Record<LayoutName, ComponentType> = {
  default: DefaultLayout,
  'no-footer': NoFooterLayout,
  redeem: RedeemLayout,
};
