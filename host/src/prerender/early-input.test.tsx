import { act, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { keepEarlyInput } from './early-input';

/** The redeem form as the host's server sends it: fields with nothing behind them yet. */
const SERVER_FORM =
  '<main><form><input name="email" type="email" value=""><input name="acceptTerms" type="checkbox">' +
  '<input name="secret" type="password" value=""><button type="submit">Redeem my gift</button></form></main>';

/** The same form as the app renders it: its state follows the fields, as the remote's form does. */
function AppForm({ seen }: { seen: (state: { email: string; acceptTerms: boolean }) => void }) {
  const [email, setEmail] = useState('');
  const [acceptTerms, setAcceptTerms] = useState(false);
  seen({ email, acceptTerms });
  return (
    <main>
      <form>
        <input name="email" type="email" value={email} onChange={(event) => setEmail(event.target.value)} />
        <input
          name="acceptTerms"
          type="checkbox"
          checked={acceptTerms}
          onChange={(event) => setAcceptTerms(event.target.checked)}
        />
        <input name="secret" type="password" defaultValue="" />
        <button type="submit">Redeem my gift</button>
      </form>
    </main>
  );
}

let container: HTMLElement;

beforeEach(() => {
  container = document.createElement('div');
  container.innerHTML = SERVER_FORM;
  document.body.append(container);
});

afterEach(() => container.remove());

/** The app renders its own form in place of the server's; returns the state it last rendered with. */
function takeOver() {
  container.innerHTML = '';
  const states: { email: string; acceptTerms: boolean }[] = [];
  render(<AppForm seen={(state) => states.push(state)} />, { container });
  return () => states.at(-1);
}

describe('what a visitor types into a prerendered form before the app takes over', () => {
  it("is put into the app's fields as typing would, the page's state with it, and the caret back in its field", async () => {
    const user = userEvent.setup();
    const early = keepEarlyInput(container);
    await user.type(container.querySelector('input[name="email"]') as HTMLInputElement, 'ada@example.com');
    await user.click(container.querySelector('input[name="acceptTerms"]') as HTMLInputElement);
    await user.type(container.querySelector('input[name="secret"]') as HTMLInputElement, 'hunter2');
    // Back in the email field, where the caret goes once the app has taken over.
    await user.type(container.querySelector('input[name="email"]') as HTMLInputElement, '.uk');
    await user.click(container.querySelector('input[name="acceptTerms"]') as HTMLInputElement);
    await user.click(container.querySelector('input[name="email"]') as HTMLInputElement);
    const state = takeOver();
    act(() => early.replay());
    expect(state()).toEqual({ email: 'ada@example.com.uk', acceptTerms: false });
    // Not a password: it is typed again.
    expect((container.querySelector('input[name="secret"]') as HTMLInputElement).value).toBe('');
    expect(document.activeElement).toBe(container.querySelector('input[name="email"]'));
  });

  it('changes nothing and takes no focus when nothing was typed', () => {
    const early = keepEarlyInput(container);
    const state = takeOver();
    act(() => early.replay());
    expect(state()).toEqual({ email: '', acceptTerms: false });
    expect(document.activeElement).toBe(document.body);
  });

  it('gives no caret back when the visitor had left the field for the page', async () => {
    const user = userEvent.setup();
    const early = keepEarlyInput(container);
    await user.type(container.querySelector('input[name="email"]') as HTMLInputElement, 'ada@example.com');
    await user.click(document.body);
    takeOver();
    act(() => early.replay());
    expect((container.querySelector('input[name="email"]') as HTMLInputElement).value).toBe('ada@example.com');
    expect(document.activeElement).toBe(document.body);
  });

  it('leaves the caret where the visitor has since put it', async () => {
    const early = keepEarlyInput(container);
    await userEvent.type(container.querySelector('input[name="email"]') as HTMLInputElement, 'ada@example.com');
    const state = takeOver();
    const button = container.querySelector('button') as HTMLButtonElement;
    button.focus();
    act(() => early.replay());
    expect(state()).toEqual({ email: 'ada@example.com', acceptTerms: false });
    expect(document.activeElement).toBe(button);
  });
});
