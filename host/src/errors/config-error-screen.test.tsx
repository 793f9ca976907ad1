import { render, screen } from '@testing-library/react';
import { ConfigError } from 'shared/runtime-config';
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
