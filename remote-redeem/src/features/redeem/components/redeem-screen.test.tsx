import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  aCompletedRedeem,
  aGift,
  aRedeem,
  GIFT_ID,
  REDEEM_ID,
  VOUCHER_CODE,
  VOUCHER_TERMS,
} from '../../../test-fixtures';
import {
  errorResponse,
  jsonResponse,
  networkFailure,
  renderRedeemPage,
  stubApi,
  voucherCodeText,
} from '../../../test-utils';

const GET = `GET /api/redeems/${REDEEM_ID}`;

/** A thrown error is reported by React before the boundary shows it; that is expected here. */
function silenceCaughtErrors(): jest.SpyInstance {
  return jest.spyOn(console, 'error').mockImplementation(() => undefined);
}

afterEach(() => {
  jest.restoreAllMocks();
  // The form's draft lives in session storage, which outlives a test.
  sessionStorage.clear();
});

describe('RedeemScreen on arrival', () => {
  it('shows a skeleton, then the open session: gift summary, its expiry and the form', async () => {
    const fetchStub = stubApi({ [GET]: [() => jsonResponse(aRedeem())] });
    renderRedeemPage(fetchStub);
    expect(screen.getByText('Loading your gift…').closest('[aria-busy="true"]')).toBeInTheDocument();

    expect(await screen.findByRole('heading', { level: 1, name: 'Redeem your gift' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Coffee shop voucher' })).toBeInTheDocument();
    expect(screen.getByText('€25')).toBeInTheDocument();
    expect(screen.getByText(/Gift valid until/)).toHaveTextContent('Gift valid until February 14, 2030');
    expect(screen.getByText(/This page is valid until/)).toHaveTextContent('This page is valid until 14:32.');

    const email = screen.getByRole('textbox', { name: 'Email address' });
    expect(email).toHaveAttribute('type', 'email');
    expect(email).toHaveAttribute('autocomplete', 'email');
    expect(email).toBeRequired();
    expect(screen.getByRole('checkbox', { name: 'I accept the terms' })).not.toBeChecked();
    expect(screen.getByRole('link', { name: 'terms' })).toHaveAttribute('href', '/terms');
    expect(screen.getByRole('button', { name: 'Redeem my gift' })).toBeEnabled();

    expect(fetchStub).toHaveBeenCalledTimes(1);
    expect(String(fetchStub.mock.calls[0]?.[0])).toBe(`http://api.test/api/redeems/${REDEEM_ID}`);
    expect(document.title).toBe('Redeem your gift · Gift Box');
  });

  it("shows the prize's icon in the summary, from the bundle, without asking any icon service", async () => {
    const fetchStub = stubApi({ [GET]: [() => jsonResponse(aRedeem())] });
    renderRedeemPage(fetchStub);

    const summary = (await screen.findByRole('heading', { level: 2, name: 'Coffee shop voucher' })).closest(
      '.p-redeem__gift',
    ) as HTMLElement;
    const icon = summary.querySelector('[data-icon="mdi:coffee"]');
    expect(icon?.tagName.toLowerCase()).toBe('svg');
    expect(icon?.querySelector('path')).toHaveAttribute('d', expect.stringMatching(/^M2 21h18/));
    expect(icon).toHaveAttribute('aria-hidden', 'true');
    expect(fetchStub).toHaveBeenCalledTimes(1);
  });

  it('writes a value without an amount as its label', async () => {
    const gift = aGift();
    const prize = { ...gift.prize, value: { label: 'Free coffee for a month' } };
    renderRedeemPage(stubApi({ [GET]: [() => jsonResponse(aRedeem({ gift: { ...gift, prize } }))] }));

    expect(await screen.findByText('Free coffee for a month')).toBeInTheDocument();
  });

  it('shows a completed session (a reload after redeeming) with its voucher and no form', async () => {
    renderRedeemPage(stubApi({ [GET]: [() => jsonResponse(aCompletedRedeem())] }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Your gift is redeemed' })).toBeInTheDocument();
    const voucher = screen.getByRole('group', { name: 'Voucher code' });
    expect(within(voucher).getByText(voucherCodeText('7KQ4-M2XD-9HTR-B3WF-QZ6C-P08N-4VYE'))).toBeInTheDocument();
    expect(screen.getByText('j•••@example.com')).toBeInTheDocument();
    expect(screen.getByText('February 1, 2030, 14:09')).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(document.title).toBe('Your voucher · Gift Box');
  });

  it('shows the whole voucher code as one piece of text, with its seven groups', async () => {
    renderRedeemPage(stubApi({ [GET]: [() => jsonResponse(aCompletedRedeem())] }));

    const code = await screen.findByText(voucherCodeText('7KQ4-M2XD-9HTR-B3WF-QZ6C-P08N-4VYE'));
    expect(code.tagName).toBe('CODE');
    expect(code).toHaveClass('p-redeem__code');
  });

  it('a voucher says how and where to use it, the prize’s conditions and until when it can be used', async () => {
    renderRedeemPage(stubApi({ [GET]: [() => jsonResponse(aCompletedRedeem())] }));

    const howTo = await screen.findByRole('region', { name: 'How to use your voucher' });
    expect(howTo).toHaveTextContent(VOUCHER_TERMS.howToUse);
    expect(screen.getByRole('region', { name: 'Conditions' })).toHaveTextContent(VOUCHER_TERMS.conditions);
    expect(screen.getByText(/^Valid until/)).toHaveTextContent('Valid until May 2, 2030, 14:09');
  });

  it('leaves out a text the catalogue left empty, and a validity the API did not give', async () => {
    const voucherTerms = { ...VOUCHER_TERMS, conditions: '' };
    renderRedeemPage(
      stubApi({ [GET]: [() => jsonResponse(aCompletedRedeem({ voucherTerms, voucherValidUntil: null }))] }),
    );

    await screen.findByRole('region', { name: 'How to use your voucher' });
    expect(screen.queryByRole('region', { name: 'Conditions' })).not.toBeInTheDocument();
    expect(screen.queryByText(/^Valid until/)).not.toBeInTheDocument();
  });

  it('shows the code in its seven groups, each keeping its dash, so the text is exactly the code', async () => {
    renderRedeemPage(stubApi({ [GET]: [() => jsonResponse(aCompletedRedeem())] }));

    const code = await screen.findByText(voucherCodeText(VOUCHER_CODE));
    const groups = [...code.querySelectorAll('.p-redeem__code-group')].map((group) => group.textContent);
    expect(groups).toEqual(['7KQ4-', 'M2XD-', '9HTR-', 'B3WF-', 'QZ6C-', 'P08N-', '4VYE']);
    // Line breaks are allowed between groups only.
    expect(code.querySelectorAll('wbr')).toHaveLength(6);
  });

  it('shows the code as a QR code, loaded with the voucher, named for screen readers', async () => {
    renderRedeemPage(stubApi({ [GET]: [() => jsonResponse(aCompletedRedeem())] }));

    const qr = await screen.findByRole('img', { name: 'QR code of your voucher code' });
    expect(qr.tagName.toLowerCase()).toBe('svg');
    expect(qr).toHaveAttribute('viewBox', '0 0 33 33');
    expect(qr.querySelector('path')).toHaveAttribute('d', expect.stringMatching(/^M0 0h7v1h-7z/));
  });

  it('leads back home, and prints the voucher', async () => {
    const print = jest.spyOn(window, 'print').mockImplementation(() => undefined);
    renderRedeemPage(stubApi({ [GET]: [() => jsonResponse(aCompletedRedeem())] }));

    expect(await screen.findByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
    await userEvent.click(screen.getByRole('button', { name: 'Print voucher' }));
    expect(print).toHaveBeenCalledTimes(1);
  });

  it('never writes a value that only repeats the prize’s name', async () => {
    const gift = aGift();
    const prize = { ...gift.prize, name: 'Tote bag', value: { label: 'Tote bag' } };
    renderRedeemPage(stubApi({ [GET]: [() => jsonResponse(aRedeem({ gift: { ...gift, prize } }))] }));

    expect(await screen.findByRole('heading', { level: 2, name: 'Tote bag' })).toBeInTheDocument();
    expect(screen.getAllByText('Tote bag')).toHaveLength(1);
  });

  it('shows a session completed in another browser as redeemed, without a voucher or an email', async () => {
    // What the API answers anyone but the visitor who opened or completed the session.
    renderRedeemPage(
      stubApi({ [GET]: [() => jsonResponse(aCompletedRedeem({ voucherCode: null, emailHint: null }))] }),
    );

    expect(await screen.findByRole('heading', { level: 1, name: 'This gift has been redeemed' })).toBeInTheDocument();
    expect(screen.getByText(/^This gift has been redeemed\./)).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Voucher code' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Copy code' })).not.toBeInTheDocument();
    expect(screen.queryByText(/Here is your voucher/)).not.toBeInTheDocument();
    expect(screen.queryByText('Email')).not.toBeInTheDocument();
    expect(screen.getByText('February 1, 2030, 14:09')).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('img', { name: /QR code/ })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
    expect(document.title).toBe('Gift redeemed · Gift Box');
  });

  it('shows an expired session with a way back to the gift while it is still available', async () => {
    renderRedeemPage(stubApi({ [GET]: [() => jsonResponse(aRedeem({ status: 'expired' }))] }));

    expect(await screen.findByRole('heading', { level: 1, name: 'This redeem page has expired' })).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: 'Back to your gift' }));
    expect(await screen.findByText('The gift page')).toBeInTheDocument();
  });

  it('offers no way back from an expired session once the gift is redeemed', async () => {
    const gift = aGift({ status: 'redeemed' });
    renderRedeemPage(stubApi({ [GET]: [() => jsonResponse(aRedeem({ status: 'expired', gift }))] }));

    expect(await screen.findByText('This gift has already been redeemed.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Back to your gift' })).not.toBeInTheDocument();
  });

  it('shows a superseded session: the gift was redeemed elsewhere', async () => {
    renderRedeemPage(stubApi({ [GET]: [() => jsonResponse(aRedeem({ status: 'superseded' }))] }));

    const heading = await screen.findByRole('heading', {
      level: 1,
      name: 'This gift was redeemed in another tab or session',
    });
    expect(heading).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See the gift' })).toHaveAttribute('href', `/gifts/${GIFT_ID}`);
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
  });

  it('throws a 404 for an unknown session, for the host to show its error page', async () => {
    silenceCaughtErrors();
    renderRedeemPage(stubApi({ [GET]: [() => errorResponse(404, 'Redeem session not found')] }));

    const caught = await screen.findByRole('alert');
    expect(caught).toHaveAttribute('data-status', '404');
    expect(caught).toHaveTextContent('This redeem session was not found.');
  });

  it('throws a 404 for a malformed id without asking the API', async () => {
    silenceCaughtErrors();
    const fetchStub = stubApi({});
    renderRedeemPage(fetchStub, 'not-an-id');

    expect(await screen.findByRole('alert')).toHaveAttribute('data-status', '404');
    expect(fetchStub).not.toHaveBeenCalled();
  });

  it.each([
    ['a 5xx', () => errorResponse(502, 'The database is restarting.'), 'The database is restarting.'],
    ['an unreachable API', networkFailure, 'could not be reached'],
  ])('shows %s inside the page, and "Try again" loads the session', async (_case, failure, message) => {
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const fetchStub = stubApi({ [GET]: [failure, () => jsonResponse(aRedeem())] });
    renderRedeemPage(fetchStub);

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your gift didn’t load');
    expect(alert).toHaveTextContent(message);
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Redeem your gift' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(fetchStub).toHaveBeenCalledTimes(2);
  });
});

describe('RedeemScreen and the one retry rule', () => {
  it('keeps a timeout (408) on the page with "Try again"', async () => {
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const fetchStub = stubApi({ [GET]: [() => errorResponse(408, 'The request took too long.')] });
    renderRedeemPage(fetchStub);

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your gift didn’t load');
    expect(alert).toHaveTextContent('The request took too long.');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(fetchStub).toHaveBeenCalledTimes(1);
  });

  it('shows a 400 for the session id as the missing session it is', async () => {
    silenceCaughtErrors();
    renderRedeemPage(stubApi({ [GET]: [() => errorResponse(400, 'params/redeemId must match pattern')] }));

    const caught = await screen.findByRole('alert');
    expect(caught).toHaveAttribute('data-status', '404');
    expect(caught).toHaveTextContent('This redeem session was not found.');
  });
});
