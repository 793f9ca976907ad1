import * as installed from 'react-router-dom';
import * as shared from './react-router-dom';

/**
 * What the shared router leaves out, and why: react-router-dom's exports that a browser page of
 * a federated app never calls. A new export of an upgraded react-router that is none of these
 * fails the test below until it is added to the shared list or here.
 */
const LEFT_OUT: readonly [RegExp, string][] = [
  [/^(UNSAFE_|unstable_)/, 'internals and unstable APIs'],
  [/^(Links|Meta|Scripts|PrefetchPageLinks|HydratedRouter)$/, "framework mode's document and hydration"],
  [/^(ServerRouter|StaticRouter|StaticRouterProvider|createStaticHandler|createStaticRouter)$/, 'server rendering'],
  [/^(createRequestHandler|createRoutesStub)$/, 'servers and tests'],
  [/^(createCookie\w*|isCookie|createSession\w*|createMemorySessionStorage|isSession)$/, 'cookies and sessions'],
  [/^(RouterContextProvider|createContext)$/, "framework mode's middleware context"],
];

const leftOutBecause = (name: string) => LEFT_OUT.find(([pattern]) => pattern.test(name))?.[1];

describe("the router the parts share: react-router's client API", () => {
  const sharedNames = Object.keys(shared);

  it('is react-router-dom itself, export for export', () => {
    const own = (module: object, name: string): unknown => (module as Record<string, unknown>)[name];
    const differing = sharedNames.filter(
      (name) => own(shared, name) === undefined || own(shared, name) !== own(installed, name),
    );
    expect(differing).toEqual([]);
  });

  it('leaves out only server, framework-mode and unstable exports', () => {
    const missing = Object.keys(installed).filter((name) => !sharedNames.includes(name));
    expect(missing.filter((name) => !leftOutBecause(name))).toEqual([]);
    expect(sharedNames.filter((name) => leftOutBecause(name))).toEqual([]);
  });
});
