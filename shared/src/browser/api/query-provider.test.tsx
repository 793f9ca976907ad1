import { useQuery, useQueryClient } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { queryClient } from 'shared/browser/api/query-client';
import { createTestQueryClient, TestQueryProvider } from '../../testing/query-client';
import { PageQueryProvider } from './query-provider';

afterEach(() => queryClient.clear());

function ClientProbe({ name }: { name: string }) {
  const client = useQueryClient();
  return <p data-testid={name}>{client === queryClient ? 'page client' : 'other client'}</p>;
}

function Greeting({ load }: { load: () => Promise<string> }) {
  const { data } = useQuery({ queryKey: ['greeting'], queryFn: load });
  return <p>{data ?? 'Loading…'}</p>;
}

describe('PageQueryProvider', () => {
  it('gives exposed pages the page’s one client when nothing above provides one', () => {
    render(
      <>
        <PageQueryProvider>
          <ClientProbe name="gift page" />
        </PageQueryProvider>
        <PageQueryProvider>
          <ClientProbe name="redeem page" />
        </PageQueryProvider>
      </>,
    );
    expect(screen.getByTestId('gift page')).toHaveTextContent('page client');
    expect(screen.getByTestId('redeem page')).toHaveTextContent('page client');
  });

  it('shares one cache between pages of different remotes: what one loaded, the next shows', async () => {
    const load = jest.fn(async () => 'Hello');
    const first = render(
      <PageQueryProvider>
        <Greeting load={load} />
      </PageQueryProvider>,
    );
    expect(await screen.findByText('Hello')).toBeInTheDocument();
    first.unmount();

    render(
      <PageQueryProvider>
        <Greeting load={async () => 'Hello again'} />
      </PageQueryProvider>,
    );
    // At once, from the cache; then asked again, as the page always is when it mounts.
    expect(screen.getByText('Hello')).toBeInTheDocument();
    expect(await screen.findByText('Hello again')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('uses the client provided above it, such as a test’s', () => {
    const client = createTestQueryClient();
    render(
      <TestQueryProvider client={client}>
        <PageQueryProvider>
          <ClientProbe name="page" />
        </PageQueryProvider>
      </TestQueryProvider>,
    );
    expect(screen.getByTestId('page')).toHaveTextContent('other client');
  });
});
