import { screen } from '@testing-library/react';
import { renderAt } from 'shared/testing/render-at';
import __Page__ from './__page__';

const PATH = '__path__';

describe('__name__ remote exposed page', () => {
  it('__Page__ renders its heading at its route', () => {
    renderAt(PATH, { [PATH]: <__Page__ /> });
    expect(screen.getByRole('heading', { level: 1, name: '__Name__' })).toBeInTheDocument();
  });
});
