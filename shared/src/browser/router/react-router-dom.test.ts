import * as installed from 'react-router-dom';
import * as shared from './react-router-dom';

describe('the router the parts share', () => {
  const sharedNames = Object.keys(shared);

  it('is react-router-dom itself, export for export', () => {
    const own = (module: object, name: string): unknown => (module as Record<string, unknown>)[name];
    const differing = sharedNames.filter(
      (name) => own(shared, name) === undefined || own(shared, name) !== own(installed, name),
    );
    expect(differing).toEqual([]);
  });

  it("holds the data router the host's pages run on", () => {
    expect(sharedNames).toEqual(expect.arrayContaining(['createBrowserRouter', 'RouterProvider', 'Link', 'Outlet']));
  });
});
