/**
 * The measured routes and what "content visible" means on each: an element of the remote page's
 * real content, never its skeleton or loading state (see the exposed pages' components).
 */
export interface MeasuredRoute {
  /** The label in the report; `/gifts/{id}` for the gift page. */
  label: string;
  path(giftId: string): string;
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
  { label: '/gifts/{id}', path: (giftId) => `/gifts/${giftId}`, selector: '.p-gift__heading .p-gift__title' },
];

/** The warm navigation: from the home page to the game, client-side, after hovering its link. */
export const WARM = {
  from: ROUTES[0] as MeasuredRoute,
  to: ROUTES[2] as MeasuredRoute,
  /** The site header's link to the game (host/src/layouts/site-header.tsx). */
  link: 'nav[aria-label="Main"] a[href="/game"]',
};
