import type { ComponentType } from 'react';
import type { LayoutName } from '../route-table/route-table';
import { DefaultLayout } from './default-layout';
import { NoFooterLayout } from './no-footer-layout';
import { RedeemLayout } from './redeem-layout';

export const LAYOUTS: Record<LayoutName, ComponentType> = {
  default: DefaultLayout,
  'no-footer': NoFooterLayout,
  redeem: RedeemLayout,
};
