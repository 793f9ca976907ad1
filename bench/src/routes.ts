import type { Page } from 'playwright-core';

/**
 * The measured routes and what "content visible" means on each: an element of the remote page's
 * real content, never its skeleton or loading state (see the exposed pages' components).
 */
/** The ids the data pages' paths take, made through the API before the loads (servers.ts). */
export interface PageIds {
  giftId: string;
  redeemId: string;
}

export interface MeasuredRoute {
  /** The label in the report; `/gifts/{id}` for the gift page. */
  label: string;
  path(ids: PageIds): string;
  /** Checked by the probe (probe.ts): in the DOM, with text, visible, not inside aria-busy="true". */
  selector: string;
}

export const ROUTES: readonly MeasuredRoute[] = [
  // remote-content's ContentPage renders `.p-content__title` only once its payload is there
  // (the loading state shows a skeleton without text instead).
  { label: '/', path: () => '/', selector: 'h1.p-content__title' },
  { label: '/about', path: () => '/about', selector: 'h1.p-content__title' },
  // remote-gifts' BoxPicker: the boxes' labels ("Box 1"…); the game page has no loading state.
  { label: '/game', path: () => '/game', selector: '.p-game__boxes .p-game__box-label' },
  // remote-gifts' GiftDetails: the prize's name under "Your gift"; the skeleton has no `.p-gift__title`.
  { label: '/gifts/{id}', path: ({ giftId }) => `/gifts/${giftId}`, selector: '.p-gift__heading .p-gift__title' },
  // remote-redeem's OpenScreen: the prize's name above the redeem form; the skeleton is aria-busy.
  {
    label: '/redeem/{id}',
    path: ({ redeemId }) => `/redeem/${redeemId}`,
    selector: '.p-redeem__gift .p-redeem__prize',
  },
];

/** The warm navigation: from the home page to the game, client-side, after hovering its link. */
export const WARM = {
  from: ROUTES[0] as MeasuredRoute,
  to: ROUTES[2] as MeasuredRoute,
  /** The site header's link to the game (host/src/layouts/site-header.tsx). */
  link: 'nav[aria-label="Main"] a[href="/game"]',
};

/**
 * The interactions whose latency to the next paint is measured (measure.ts interactionRun): on
 * a settled page, `prepare` (not measured), then `act`, the one interaction measured.
 */
export interface Interaction {
  label: string;
  route: MeasuredRoute;
  /** Whether each run needs ids of its own (the interaction changes the gift or session). */
  changesData: boolean;
  prepare(page: Page): Promise<void>;
  act(page: Page): Promise<void>;
}

export const INTERACTIONS: readonly Interaction[] = [
  {
    // remote-gifts' BoxPicker: picking a box sends the play and shows that it is under way.
    label: 'pick a box on /game',
    route: ROUTES[2] as MeasuredRoute,
    changesData: false,
    prepare: async () => undefined,
    act: (page) => page.getByRole('button', { name: 'Box 2' }).click(),
  },
  {
    // remote-redeem's RedeemForm: the address and the terms first, then the submit measured.
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
