import * as installed from '@tanstack/react-query';
import * as shared from './tanstack-react-query';

describe('the TanStack Query the parts share', () => {
  const sharedNames = Object.keys(shared);

  it('is @tanstack/react-query itself, export for export', () => {
    const own = (module: object, name: string): unknown => (module as Record<string, unknown>)[name];
    const differing = sharedNames.filter(
      (name) => own(shared, name) === undefined || own(shared, name) !== own(installed, name),
    );
    expect(differing).toEqual([]);
  });

  it('holds the one client, its provider and the hooks the pages load data with', () => {
    expect(sharedNames).toEqual(
      expect.arrayContaining(['QueryClient', 'QueryClientProvider', 'useQuery', 'useMutation', 'useQueryClient']),
    );
  });
});
