import { render, screen } from '@testing-library/react';
import { ConfigError, RemoteOriginError } from 'shared/runtime-config';
import { ConfigErrorScreen } from './config-error-screen';

it('shows a configuration problem as a 500 page naming the key, with a way home', () => {
  render(
    <ConfigErrorScreen error={new ConfigError('Invalid runtime configuration: "apiBaseUrl" must be an http(s) URL')} />,
  );
  expect(screen.getByText('500')).toBeInTheDocument();
  expect(screen.getByRole('heading', { name: 'Internal Server Error' })).toBeInTheDocument();
  expect(screen.getByText('Invalid runtime configuration: "apiBaseUrl" must be an http(s) URL')).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
});

it('tells a visitor in plain words which address the site refused to load code from', () => {
  const error = new RemoteOriginError(
    [{ key: 'remotes.gifts', url: 'https://gifts.evil.example/mf-manifest.json' }],
    ['https://gifts.example.com'],
  );
  render(<ConfigErrorScreen error={error} />);
  expect(
    screen.getByText(
      'This site is set up to load part of its pages from an address it does not trust ' +
        "(https://gifts.evil.example/mf-manifest.json), so it loaded nothing from there. Please let the site's team know.",
    ),
  ).toBeInTheDocument();
  // The configuration's words (keys, "remoteOrigins") are for the console, not the page.
  expect(screen.queryByText(/remoteOrigins/)).not.toBeInTheDocument();
});
