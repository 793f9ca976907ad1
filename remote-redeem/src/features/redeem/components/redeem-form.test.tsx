import { act, cleanup, screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { apiQueryKeys } from 'shared/browser/api/query-keys';
import { createTestQueryClient } from 'shared/testing/query-client';
import { aCompletedRedeem, aGift, aRedeem, GIFT_ID, REDEEM_ID } from '../../../test-fixtures';
import {
  errorResponse,
  jsonResponse,
  networkFailure,
  renderRedeemPage,
  sentBodies,
  stubApi,
  voucherCodeText,
} from '../../../test-utils';

const GET = `GET /api/redeems/${REDEEM_ID}`;
const COMPLETE = `POST /api/redeems/${REDEEM_ID}/complete`;
const VOUCHER = {
  voucherCode: '7KQ4-M2XD-9HTR-B3WF-QZ6C-P08N-4VYE',
  redeemedAt: new Date(2030, 1, 1, 14, 9).toISOString(),
  voucherValidUntil: new Date(2030, 4, 2, 14, 9).toISOString(),
};

type Reply = () => Response | Promise<Response>;

async function openPage(completeReplies: Reply[], laterGets: Reply[] = []) {
  const fetchStub = stubApi({ [GET]: [() => jsonResponse(aRedeem()), ...laterGets], [COMPLETE]: completeReplies });
  renderRedeemPage(fetchStub);
  await screen.findByRole('heading', { level: 1, name: 'Redeem your gift' });
  return fetchStub;
}

const emailField = () => screen.getByRole('textbox', { name: /Email address/ });
const termsBox = () => screen.getByRole('checkbox', { name: 'I accept the terms' });
const confirmButton = () => screen.getByRole('button', { name: 'Redeem my gift' });

async function fillIn(user: UserEvent, email = 'jane@example.com') {
  await user.type(emailField(), email);
  await user.click(termsBox());
}

/** A response the test releases when it is ready, to look at the page while the request runs. */
function deferred(): { reply: Reply; release: (response: Response) => void } {
  let release: (response: Response) => void = () => undefined;
  const promise = new Promise<Response>((resolve) => (release = resolve));
  return { reply: () => promise, release };
}

function describedBy(field: HTMLElement): string {
  const ids = field.getAttribute('aria-describedby')?.split(' ') ?? [];
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
}

afterEach(() => {
  jest.restoreAllMocks();
  // The form's draft lives in session storage, which outlives a test.
  sessionStorage.clear();
});

describe('RedeemForm validation', () => {
  it('flags an empty email and unticked terms on submit, and sends nothing', async () => {
    const user = userEvent.setup();
    const fetchStub = await openPage([]);

    await user.click(confirmButton());

    expect(emailField()).toHaveAttribute('aria-invalid', 'true');
    expect(describedBy(emailField())).toContain('Enter your email address.');
    expect(termsBox()).toHaveAttribute('aria-invalid', 'true');
    expect(describedBy(termsBox())).toBe('Accept the terms to redeem your gift.');
    expect(emailField()).toHaveFocus();
    expect(sentBodies(fetchStub, COMPLETE)).toHaveLength(0);
  });

  it('flags a malformed email; after the first submit it checks again on blur', async () => {
    const user = userEvent.setup();
    const fetchStub = await openPage([]);

    await user.type(emailField(), 'jane@example');
    await user.tab();
    expect(emailField()).not.toHaveAttribute('aria-invalid');

    await user.click(termsBox());
    await user.click(confirmButton());
    expect(describedBy(emailField())).toContain('Enter an email address like name@example.com.');
    expect(termsBox()).not.toHaveAttribute('aria-invalid');
    expect(sentBodies(fetchStub, COMPLETE)).toHaveLength(0);

    await user.clear(emailField());
    await user.tab();
    expect(describedBy(emailField())).toContain('Enter your email address.');

    await user.type(emailField(), 'jane@example.com');
    expect(emailField()).not.toHaveAttribute('aria-invalid');
  });

  it('flags the terms again when they are unticked after the first submit', async () => {
    const user = userEvent.setup();
    await openPage([]);
    await user.click(confirmButton());

    await user.click(termsBox());
    expect(termsBox()).not.toHaveAttribute('aria-invalid');
    await user.click(termsBox());
    expect(describedBy(termsBox())).toBe('Accept the terms to redeem your gift.');
  });
});

describe('RedeemForm confirmation', () => {
  it('redeems, then shows the voucher, which copies to the clipboard', async () => {
    const user = userEvent.setup();
    const writeText = jest.fn().mockResolvedValue(undefined);
    // After setup(): user-event installs a clipboard of its own.
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const fetchStub = await openPage([() => jsonResponse(VOUCHER)]);

    await fillIn(user, '  jane@example.com ');
    await user.click(confirmButton());

    const heading = await screen.findByRole('heading', { level: 1, name: 'Your gift is redeemed' });
    expect(heading).toHaveFocus();
    expect(sentBodies(fetchStub, COMPLETE)).toEqual([{ email: 'jane@example.com', acceptTerms: true }]);
    const voucher = screen.getByRole('group', { name: 'Voucher code' });
    expect(within(voucher).getByText(voucherCodeText('7KQ4-M2XD-9HTR-B3WF-QZ6C-P08N-4VYE'))).toBeInTheDocument();
    expect(screen.getByText('j•••@example.com')).toBeInTheDocument();
    expect(document.title).toBe('Your voucher · Gift Box');

    await user.click(within(voucher).getByRole('button', { name: 'Copy code' }));
    expect(writeText).toHaveBeenCalledWith('7KQ4-M2XD-9HTR-B3WF-QZ6C-P08N-4VYE');
    expect(within(voucher).getByRole('status')).toHaveTextContent('Copied');
  });

  it('sends the visitor cookie with every call, so after a reload this browser sees its voucher again', async () => {
    const user = userEvent.setup();
    const fetchStub = await openPage([() => jsonResponse(VOUCHER)]);
    await fillIn(user);
    await user.click(confirmButton());
    expect(await screen.findByText(voucherCodeText(VOUCHER.voucherCode))).toBeInTheDocument();
    // The API ties the session and its voucher to the p_visitor cookie: it must travel.
    expect(fetchStub.mock.calls.map(([, init]) => init?.credentials)).toEqual(['include', 'include']);

    // A reload: the API answers this browser (its cookie) the completed session with the code.
    cleanup();
    const reloaded = stubApi({ [GET]: [() => jsonResponse(aCompletedRedeem())] });
    renderRedeemPage(reloaded);
    expect(await screen.findByRole('heading', { level: 1, name: 'Your gift is redeemed' })).toBeInTheDocument();
    expect(
      within(screen.getByRole('group', { name: 'Voucher code' })).getByText(voucherCodeText(VOUCHER.voucherCode)),
    ).toBeInTheDocument();
    expect(reloaded.mock.calls[0]?.[1]?.credentials).toBe('include');
  });

  it('says how to copy by hand when the clipboard refuses', async () => {
    const user = userEvent.setup();
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const writeText = jest.fn().mockRejectedValue(new DOMException('Denied', 'NotAllowedError'));
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderRedeemPage(stubApi({ [GET]: [() => jsonResponse(aCompletedRedeem())] }));

    await user.click(await screen.findByRole('button', { name: 'Copy code' }));

    expect(screen.getByRole('status')).toHaveTextContent('Copying did not work here.');
    expect(window.getSelection()?.toString()).toBe('7KQ4-M2XD-9HTR-B3WF-QZ6C-P08N-4VYE');
  });

  it('sends one request for a double click, and shows it is under way', async () => {
    const user = userEvent.setup();
    const { reply, release } = deferred();
    const fetchStub = await openPage([reply]);
    await fillIn(user);

    await user.dblClick(confirmButton());

    const pending = screen.getByRole('button', { name: 'Redeeming…' });
    expect(pending).toBeDisabled();
    expect(pending).toHaveAttribute('aria-busy', 'true');
    expect(sentBodies(fetchStub, COMPLETE)).toHaveLength(1);
    release(jsonResponse(VOUCHER));
    expect(await screen.findByText(voucherCodeText('7KQ4-M2XD-9HTR-B3WF-QZ6C-P08N-4VYE'))).toBeInTheDocument();
  });

  it('sends one request for two clicks in the same tick, before the button can disable', async () => {
    const user = userEvent.setup();
    const { reply, release } = deferred();
    const fetchStub = await openPage([reply]);
    await fillIn(user);

    const button = confirmButton();
    // Both clicks in one tick; awaited after, because a mutation sends its request a microtask later.
    await act(async () => {
      button.click();
      button.click();
    });

    expect(sentBodies(fetchStub, COMPLETE)).toHaveLength(1);
    release(jsonResponse(VOUCHER));
    expect(await screen.findByText(voucherCodeText('7KQ4-M2XD-9HTR-B3WF-QZ6C-P08N-4VYE'))).toBeInTheDocument();
  });

  it('keeps the form after a network failure, and "Try again" resends the same request', async () => {
    const user = userEvent.setup();
    const fetchStub = await openPage([networkFailure, () => jsonResponse(VOUCHER)]);
    await fillIn(user);
    await user.click(confirmButton());

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('We could not reach the server. Your gift is not redeemed twice if you try again.');
    expect(emailField()).toHaveValue('jane@example.com');
    expect(termsBox()).toBeChecked();

    await user.click(within(alert).getByRole('button', { name: 'Try again' }));

    expect(await screen.findByText(voucherCodeText('7KQ4-M2XD-9HTR-B3WF-QZ6C-P08N-4VYE'))).toBeInTheDocument();
    const sent = sentBodies(fetchStub, COMPLETE);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual(sent[0]);
  });

  it('on 409 reloads the session and shows that another session redeemed the gift', async () => {
    const user = userEvent.setup();
    await openPage(
      [() => errorResponse(409, 'This gift has already been redeemed.')],
      [() => jsonResponse(aRedeem({ status: 'superseded' }))],
    );
    await fillIn(user);
    await user.click(confirmButton());

    const heading = await screen.findByRole('heading', {
      level: 1,
      name: 'This gift was redeemed in another tab or session',
    });
    expect(heading).toHaveFocus();
  });

  it('on 409 with the session still open, says why next to the form', async () => {
    const user = userEvent.setup();
    await openPage([() => errorResponse(409, 'This gift has already been redeemed.')], [() => jsonResponse(aRedeem())]);
    await fillIn(user);
    await user.click(confirmButton());

    expect(await screen.findByRole('alert')).toHaveTextContent('This gift has already been redeemed.');
    expect(confirmButton()).toBeEnabled();
  });

  it('on 410 shows the expired screen, even if the reload fails', async () => {
    const user = userEvent.setup();
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    await openPage([() => errorResponse(410, 'This redeem session has expired.')], [networkFailure]);
    await fillIn(user);
    await user.click(confirmButton());

    expect(await screen.findByRole('heading', { level: 1, name: 'This redeem page has expired' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to your gift' })).toBeInTheDocument();
  });

  it('on 429 says how long to wait', async () => {
    const user = userEvent.setup();
    await openPage([() => errorResponse(429, 'Too many attempts.', { 'Retry-After': '30' })]);
    await fillIn(user);
    await user.click(confirmButton());

    expect(await screen.findByRole('alert')).toHaveTextContent('Too many attempts; try again in 30 seconds.');
  });

  it("on 400 shows the API's message next to the form, until the email changes", async () => {
    const user = userEvent.setup();
    await openPage([() => errorResponse(400, 'body/email must match format "email"')]);
    await fillIn(user);
    await user.click(confirmButton());

    expect(await screen.findByRole('alert')).toHaveTextContent('body/email must match format "email"');
    await user.type(emailField(), 'm');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('RedeemForm and the page’s cache', () => {
  const giftKey = apiQueryKeys.gift(GIFT_ID);

  it('once redeemed, shows a gift page that is still cached the gift redeemed', async () => {
    const user = userEvent.setup();
    const queryClient = createTestQueryClient();
    queryClient.setQueryData(giftKey, aGift());
    const fetchStub = stubApi({ [GET]: [() => jsonResponse(aRedeem())], [COMPLETE]: [() => jsonResponse(VOUCHER)] });
    renderRedeemPage(fetchStub, REDEEM_ID, { queryClient });
    await screen.findByRole('heading', { level: 1, name: 'Redeem your gift' });

    await fillIn(user);
    await user.click(confirmButton());
    await screen.findByRole('heading', { level: 1, name: 'Your gift is redeemed' });

    expect(queryClient.getQueryData(giftKey)).toEqual(aGift({ status: 'redeemed', redeemedAt: VOUCHER.redeemedAt }));
    expect(fetchStub).toHaveBeenCalledTimes(2);
  });

  it('puts no gift into the cache that no page loaded', async () => {
    const user = userEvent.setup();
    const queryClient = createTestQueryClient();
    renderRedeemPage(
      stubApi({ [GET]: [() => jsonResponse(aRedeem())], [COMPLETE]: [() => jsonResponse(VOUCHER)] }),
      REDEEM_ID,
      { queryClient },
    );
    await screen.findByRole('heading', { level: 1, name: 'Redeem your gift' });

    await fillIn(user);
    await user.click(confirmButton());
    await screen.findByRole('heading', { level: 1, name: 'Your gift is redeemed' });

    expect(queryClient.getQueryData(giftKey)).toBeUndefined();
  });
});

describe('RedeemForm draft', () => {
  const DRAFT_KEY = 'p-redeem-draft';
  const OTHER_ID = 'Rd_other00-0123456789abc';

  async function renderAgain(redeemId = REDEEM_ID) {
    cleanup();
    renderRedeemPage(
      stubApi({ [`GET /api/redeems/${redeemId}`]: [() => jsonResponse(aRedeem({ redeemId }))] }),
      redeemId,
    );
    await screen.findByRole('heading', { level: 1, name: 'Redeem your gift' });
  }

  it('opens the terms in a new tab, said so to screen readers, so the form stays as it is', async () => {
    await openPage([]);
    const link = screen.getByRole('link', { name: 'terms' });
    expect(link).toHaveAttribute('href', '/terms');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener');
    expect(link).toHaveAccessibleDescription('Opens in a new tab');
  });

  it('gives back the typed email and the ticked terms when the visitor leaves the page and comes back', async () => {
    const user = userEvent.setup();
    await openPage([]);
    await fillIn(user, 'jane@example.com');

    await renderAgain();

    expect(emailField()).toHaveValue('jane@example.com');
    expect(termsBox()).toBeChecked();
  });

  it('keeps only the session, the email and the box, and forgets them once redeemed', async () => {
    const user = userEvent.setup();
    await openPage([() => jsonResponse(VOUCHER)]);
    await fillIn(user, 'jane@example.com');
    expect(JSON.parse(sessionStorage.getItem(DRAFT_KEY) ?? 'null')).toStrictEqual({
      redeemId: REDEEM_ID,
      email: 'jane@example.com',
      acceptTerms: true,
    });
    expect(sessionStorage).toHaveLength(1);

    await user.click(confirmButton());
    await screen.findByRole('heading', { level: 1, name: 'Your gift is redeemed' });

    expect(sessionStorage.getItem(DRAFT_KEY)).toBeNull();
  });

  it('forgets the draft once the session can no longer be redeemed', async () => {
    const user = userEvent.setup();
    await openPage(
      [() => errorResponse(409, 'This gift has already been redeemed.')],
      [() => jsonResponse(aRedeem({ status: 'superseded' }))],
    );
    await fillIn(user, 'jane@example.com');
    await user.click(confirmButton());
    await screen.findByRole('heading', { level: 1, name: 'This gift was redeemed in another tab or session' });

    expect(sessionStorage.getItem(DRAFT_KEY)).toBeNull();
  });

  it('does not carry one session’s draft into another', async () => {
    const user = userEvent.setup();
    await openPage([]);
    await fillIn(user, 'jane@example.com');

    await renderAgain(OTHER_ID);

    expect(emailField()).toHaveValue('');
    expect(termsBox()).not.toBeChecked();
  });

  it('starts empty when the stored draft is not one it wrote', async () => {
    sessionStorage.setItem(DRAFT_KEY, '{"redeemId": 42');
    await openPage([]);
    expect(emailField()).toHaveValue('');
  });
});
