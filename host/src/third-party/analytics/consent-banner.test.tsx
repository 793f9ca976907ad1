import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { withThirdParties } from '../../test-utils';
import { createThirdParties } from '../third-parties';
import { ConsentBanner } from './consent-banner';
import { CONSENT_STORAGE_KEY, createConsentStore, type ConsentStore } from './consent-store';
import { CookieSettingsButton } from './cookie-settings-button';

function renderPage(store: ConsentStore) {
  return render(
    <MemoryRouter>
      <main id="main" tabIndex={-1}>
        <a href="#content">A link on the page</a>
      </main>
      <footer>
        <CookieSettingsButton />
      </footer>
      <ConsentBanner />
    </MemoryRouter>,
    { wrapper: withThirdParties(createThirdParties({ consent: store })) },
  );
}

const banner = () => screen.queryByRole('region', { name: 'Cookies and analytics' });
const stored = () =>
  JSON.parse(window.localStorage.getItem(CONSENT_STORAGE_KEY) ?? 'null') as { choice: string } | null;

beforeEach(() => window.localStorage.clear());

describe('ConsentBanner', () => {
  it('shows nothing, and no "Cookie settings", while nothing asks for consent', () => {
    renderPage(createConsentStore());
    expect(banner()).toBeNull();
    expect(screen.queryByRole('button', { name: 'Cookie settings' })).toBeNull();
  });

  it('appears once analytics start, with a heading, Accept and Decline, without taking focus', async () => {
    const store = createConsentStore();
    renderPage(store);
    const link = screen.getByRole('link', { name: 'A link on the page' });
    link.focus();

    act(() => store.markRelevant());

    const region = banner();
    expect(region).not.toBeNull();
    expect(screen.getByRole('heading', { level: 2, name: 'Cookies and analytics' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Accept' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Decline' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'privacy policy' })).toHaveAttribute('href', '/privacy-policy');
    expect(link).toHaveFocus();
  });

  it.each([
    ['Accept', 'granted'],
    ['Decline', 'denied'],
  ])('%s stores the choice and closes the banner', async (button, choice) => {
    const store = createConsentStore();
    store.markRelevant();
    renderPage(store);

    await userEvent.click(screen.getByRole('button', { name: button }));

    expect(banner()).toBeNull();
    expect(stored()?.choice).toBe(choice);
    expect(store.getState().choice).toBe(choice);
  });

  it('stays closed on the next visit once answered', () => {
    window.localStorage.setItem(
      CONSENT_STORAGE_KEY,
      JSON.stringify({ choice: 'denied', at: new Date().toISOString() }),
    );
    const store = createConsentStore();
    store.markRelevant();
    renderPage(store);

    expect(banner()).toBeNull();
    expect(screen.getByRole('button', { name: 'Cookie settings' })).toBeInTheDocument();
  });

  it('is answered from the keyboard', async () => {
    const user = userEvent.setup();
    const store = createConsentStore();
    store.markRelevant();
    renderPage(store);

    await user.tab();
    expect(screen.getByRole('link', { name: 'A link on the page' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Cookie settings' })).toHaveFocus();
    await user.tab();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Accept' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Decline' })).toHaveFocus();
    await user.keyboard('{Enter}');

    expect(banner()).toBeNull();
    expect(store.getState().choice).toBe('denied');
    // The banner took its button with it: focus goes to the page, not nowhere.
    expect(screen.getByRole('main')).toHaveFocus();
  });

  it('reopens from "Cookie settings" with focus on it, and gives focus back after the new choice', async () => {
    const user = userEvent.setup();
    const store = createConsentStore();
    store.markRelevant();
    store.choose('granted');
    renderPage(store);
    expect(banner()).toBeNull();

    const settings = screen.getByRole('button', { name: 'Cookie settings' });
    await user.click(settings);

    expect(banner()).toHaveFocus();
    await user.tab();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Accept' })).toHaveFocus();
    await user.tab();
    await user.keyboard('{Enter}');

    expect(banner()).toBeNull();
    expect(store.getState().choice).toBe('denied');
    expect(settings).toHaveFocus();
  });

  it('reopened, says what the visitor chose and closes without a new answer by button or Escape', async () => {
    const user = userEvent.setup();
    const store = createConsentStore();
    store.markRelevant();
    store.choose('denied');
    renderPage(store);
    const settings = screen.getByRole('button', { name: 'Cookie settings' });

    await user.click(settings);
    expect(screen.getByText('You have declined analytics cookies.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Keep my choice' }));
    expect(banner()).toBeNull();
    expect(store.getState().choice).toBe('denied');
    expect(settings).toHaveFocus();

    await user.click(settings);
    await user.keyboard('{Escape}');
    expect(banner()).toBeNull();
    expect(store.getState().choice).toBe('denied');
    expect(settings).toHaveFocus();
  });

  it('asked for the first time, cannot be closed without an answer', async () => {
    const user = userEvent.setup();
    const store = createConsentStore();
    renderPage(store);
    act(() => store.markRelevant());
    expect(screen.queryByRole('button', { name: 'Keep my choice' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Accept' }));
    await user.click(screen.getByRole('button', { name: 'Cookie settings' }));
    expect(screen.getByText('You have accepted analytics cookies.')).toBeInTheDocument();
  });

  it('while open, keeps a control the visitor tabs to scrolled into view above it', async () => {
    const user = userEvent.setup();
    const store = createConsentStore();
    renderPage(store);
    expect(document.documentElement.style.scrollPaddingBottom).toBe('');
    act(() => store.markRelevant());
    expect(document.documentElement.style.scrollPaddingBottom).toMatch(/^\d+px$/);
    await user.click(screen.getByRole('button', { name: 'Decline' }));
    expect(document.documentElement.style.scrollPaddingBottom).toBe('');
  });
});
