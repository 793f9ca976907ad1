/**
 * The minimal page frame a remote renders when its team runs it alone (`npm run dev -w …`):
 * a router, links to its pages, and an error display. The host is not involved.
 */
import { Component, StrictMode, type ErrorInfo, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Link, Route, Routes } from 'react-router-dom';
import { ApiProvider } from './api/api-context';
import { createApiClient } from '../api/client';
import { toHttpError } from '../http-error';
import { standaloneApiBaseUrl } from './standalone-api';

export interface StandaloneRoute {
  path: string;
  /** A concrete path to link to, for routes with parameters. */
  example: string;
  element: ReactNode;
}

class ShellErrorBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  override state = { error: undefined as unknown };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  override render() {
    if (this.state.error === undefined) return this.props.children;
    const error = toHttpError(this.state.error);
    return (
      <div role="alert">
        <h1>{error.statusCode}</h1>
        <p>{error.message}</p>
        <button type="button" onClick={() => this.setState({ error: undefined })}>
          Try again
        </button>
      </div>
    );
  }
}

export function renderStandalone(title: string, routes: StandaloneRoute[]): void {
  const container = document.getElementById('root');
  if (!container) throw new Error('The page has no #root element');
  const api = createApiClient({ baseUrl: standaloneApiBaseUrl(window.location, __API_PORT__) });
  createRoot(container).render(
    <StrictMode>
      <ApiProvider client={api}>
        <BrowserRouter>
          <header
            style={{
              display: 'flex',
              flexWrap: 'wrap',
              gap: 'var(--p-space-2) var(--p-space-3)',
              padding: 'var(--p-space-3)',
              borderBottom: '1px solid var(--p-color-border)',
              overflowWrap: 'anywhere',
            }}
          >
            <strong>{title}</strong> (standalone){' '}
            {routes.map((route) => (
              <Link key={route.path} to={route.example}>
                {route.example}
              </Link>
            ))}
          </header>
          <main style={{ padding: 'var(--p-space-3)' }}>
            <ShellErrorBoundary>
              <Routes>
                {routes.map((route) => (
                  <Route key={route.path} path={route.path} element={route.element} />
                ))}
                <Route path="*" element={<p>Pick a page above.</p>} />
              </Routes>
            </ShellErrorBoundary>
          </main>
        </BrowserRouter>
      </ApiProvider>
    </StrictMode>,
  );
}
