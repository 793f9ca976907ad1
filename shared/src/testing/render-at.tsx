/** Test helper: renders pages inside a router at a path, as the host (or a standalone shell) would. */
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { TestQueryProvider } from './query-client';

export function renderAt(path: string, routes: Record<string, ReactElement>) {
  return render(
    <TestQueryProvider>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          {Object.entries(routes).map(([routePath, element]) => (
            <Route key={routePath} path={routePath} element={element} />
          ))}
        </Routes>
      </MemoryRouter>
    </TestQueryProvider>,
  );
}
