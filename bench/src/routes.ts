import type { Page } from 'playwright-core';

/**
 * The measured routes and their "content visible": an element of the page's real content, never its
 * skeleton or loading state.
 */
export interface PageIds {
  giftId: string;
  redeemId: string;
}

export interface MeasuredRoute {
  label: string;
  path(ids: PageIds): string;
  selector: string;
}

export const ROUTES: readonly MeasuredRoute[] = [
  // Only once the payload is there; the loading state shows a skeleton without text.
  { label: '/', path: () => '/', selector: 'h1.p-content__title' },
  { label: '/about', path: () => '/about', selector: 'h1.p-content__title' },
  { label: '/game', path: () => '/game', selector: '.p-game__boxes .p-game__box-label' },
  { label: '/gifts/{id}', path: ({ giftId }) => `/gifts/${giftId}`, selector: '.p-gift__heading .p-gift__title' },
  {
    label: '/redeem/{id}',
    path: ({ redeemId }) => `/redeem/${redeemId}`,
    selector: '.p-redeem__gift .p-redeem__prize',
  },
];

export const WARM = {
  from: ROUTES[0] as MeasuredRoute,
  to: ROUTES[2] as MeasuredRoute,
  link: 'nav[aria-label="Main"] a[href="/game"]',
};

export interface Interaction {
  label: string;
  route: MeasuredRoute;
  /** The interaction changes the gift or session. */
  changesData: boolean;
  prepare(page: Page): Promise<void>;
  act(page: Page): Promise<void>;
}

export const INTERACTIONS: readonly Interaction[] = [
  {
    label: 'pick a box on /game',
    route: ROUTES[2] as MeasuredRoute,
    changesData: false,
    prepare: async () => undefined,
    act: (page) => page.getByRole('button', { name: 'Box 2' }).click(),
  },
  {
    label: 'submit the redeem form',
    route: ROUTES[4] as MeasuredRoute,
    changesData: true,
    prepare: async (page) => {
      await page.getByRole('textbox', { name: /Email address/ }).fill('bench@example.com');
      await page.getByRole('checkbox', { name: 'I accept the terms' }).check();
    },
    act: (page) => page.getByRole('button', { name: 'Redeem my gift' }).click(),
  },
];
