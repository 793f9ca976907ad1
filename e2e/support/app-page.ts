/**
 * What the app's pages look like from outside: the layout marker, the main heading, the site
 * navigation, the error page, and waits for a page to have finished rendering.
 */
import type { Locator, Page, Response } from '@playwright/test';

export type LayoutName = 'default' | 'no-footer' | 'redeem' | 'error';

/** Opens a path on the host (the context's base URL) and gives the document's HTTP status. */
export async function visit(page: Page, path: string): Promise<number | undefined> {
  const response: Response | null = await page.goto(path, { waitUntil: 'domcontentloaded' });
  return response?.status();
}

export function mainHeading(page: Page): Locator {
  return page.locator('main h1');
}

export function mainNav(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Main' });
}

export function navLink(page: Page, label: string): Locator {
  return mainNav(page).getByRole('link', { name: label, exact: true });
}

/** The generic error page (role alert), with its code, title and message. */
export function errorPage(page: Page): Locator {
  return page.locator('main [role="alert"]');
}

export async function layoutName(page: Page): Promise<string | null> {
  return page.locator('[data-layout]').first().getAttribute('data-layout');
}

export interface RenderedPage {
  heading: string;
  /** The main element's text without the heading. */
  bodyText: string;
}

/**
 * Waits until the page inside `main` has rendered: taken over by the app if prerendered, no
 * loading placeholder left, a non-empty h1 and, unless `headingOnly`, some text besides it.
 */
export async function waitForRenderedPage(
  page: Page,
  options: { headingOnly?: boolean; timeoutMs?: number; notHeading?: string } = {},
): Promise<RenderedPage> {
  const headingOnly = options.headingOnly ?? false;
  try {
    const handle = await page.waitForFunction(
      ({ wantBody, notHeading }) => {
        // A page the host's server prerendered is the app's once the app has taken it over.
        if (document.querySelector('[data-prerendered]')) return false;
        const main = document.querySelector('main');
        const heading = main?.querySelector('h1');
        if (!main || !heading || main.querySelector('[aria-busy="true"]')) return false;
        const headingText = heading.innerText.trim();
        if (!headingText || heading.getBoundingClientRect().height === 0) return false;
        if (headingText === notHeading) return false;
        const bodyText = main.innerText.replace(heading.innerText, '').trim();
        if (wantBody && !bodyText) return false;
        return { heading: headingText, bodyText };
      },
      { wantBody: !headingOnly, notHeading: options.notHeading ?? null },
      { timeout: options.timeoutMs ?? 15_000 },
    );
    return (await handle.jsonValue()) as RenderedPage;
  } catch (error) {
    const shown = await page
      .evaluate(() => document.querySelector('main')?.innerText ?? document.body.innerText)
      .catch(() => '(page gone)');
    throw new Error(
      `${page.url()} did not render a page (h1${headingOnly ? '' : ' and text'} in main): ${(error as Error).message}\nmain shows: ${JSON.stringify(shown.slice(0, 500))}`,
    );
  }
}

/**
 * Follows a link (of the site's navigation, say) and waits for the page at `path` to render. The
 * address changes before the new page commits (the router keeps the old page on screen while
 * the new one loads), so the wait is for a heading other than the one shown before the click.
 */
export async function followLink(
  page: Page,
  link: Locator,
  path: string,
  options: { headingOnly?: boolean } = {},
): Promise<RenderedPage> {
  const before =
    (await mainHeading(page).count()) > 0 ? (await mainHeading(page).first().innerText()).trim() : undefined;
  await link.click();
  await page.waitForURL((url) => url.pathname === path);
  return waitForRenderedPage(page, { headingOnly: options.headingOnly, notHeading: before });
}
