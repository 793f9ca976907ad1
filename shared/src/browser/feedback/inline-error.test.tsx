import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { InlineError } from './inline-error';

describe('InlineError', () => {
  it('says what failed, and offers "Try again" when trying again can help', async () => {
    const onRetry = jest.fn();
    render(<InlineError title="Your play didn't go through" message="The game is resting." onRetry={onRetry} />);

    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent("Your play didn't go through");
    expect(alert).toHaveTextContent('The game is resting.');
    expect(screen.queryByRole('heading')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('offers nothing to click without a retry', () => {
    render(<InlineError title="Redeeming didn't start" message="No." />);
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it('names the page with its title when nothing else does', () => {
    render(<InlineError asHeading title="This page didn’t load" message="HTTP 404" onRetry={() => undefined} />);
    expect(screen.getByRole('heading', { level: 1, name: 'This page didn’t load' })).toBeInTheDocument();
  });
});
