/**
 * The host's frame of a page (its layout: header, main region, footer) rendered to HTML on the
 * server, with a remote's prerendered markup where the page goes. The browser's first render
 * of the same route produces the same frame, so the app takes over without a visible change.
 * The components are the app's own; the services they would call are inert here.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { Route, Routes, StaticRouter } from 'react-router-dom';
import type { RuntimeConfig } from 'shared/runtime-config';
import { AppServicesContext, type AppServices } from '../src/app-services';
import { LAYOUTS } from '../src/layouts/layouts';
import { RemotePart } from '../src/layouts/remote-part';
import { RouteTable, type LayoutName } from '../src/route-table/route-table';
import { createConsentStore } from '../src/third-party/analytics/consent-store';
import { createThirdParties } from '../src/third-party/third-parties';
import { ThirdPartiesContext } from '../src/third-party/third-parties-context';

/** Where the page's markup goes; an element no component renders, replaced after rendering. */
const SLOT = 'gift-box-page-slot';

const idle = () => undefined;
const INERT_SERVICES = {
  remotes: { load: () => new Promise(idle), prefetch: idle, reset: idle },
  versionCheck: { isStale: () => false, start: idle, trackRemote: () => Promise.resolve(), prepareNavigation: idle },
  reloadOnce: () => false,
  apiActivity: { subscribe: () => idle, isActive: () => false },
} as unknown as AppServices;

/** No stored choice and no events: what a first visit's browser shows before the app starts its third parties. */
const serverConsent = () =>
  createConsentStore({
    storage: () => ({ getItem: () => null }) as unknown as Storage,
    events: { addEventListener: idle, removeEventListener: idle },
    now: () => new Date(),
  });

export interface PageFrameOptions {
  pathname: string;
  layout: LayoutName;
  /** The remote whose page it is: its part of the page is marked as the app marks it. */
  remote: string;
  /** The page's markup, already sanitised. */
  pageHtml: string;
  config: RuntimeConfig;
}

/** The table the frame's links resolve by: the one the page's configuration carries, built once per configuration. */
const tables = new WeakMap<RuntimeConfig, RouteTable>();
function tableOf(config: RuntimeConfig): RouteTable {
  let table = tables.get(config);
  if (!table) {
    table = config.routes ? new RouteTable(config.routes) : RouteTable.registry();
    tables.set(config, table);
  }
  return table;
}

export function renderPageFrame({ pathname, layout, remote, pageHtml, config }: PageFrameOptions): string {
  const Layout = LAYOUTS[layout];
  const Slot = SLOT as unknown as 'div';
  const html = renderToStaticMarkup(
    <StaticRouter location={pathname}>
      <AppServicesContext.Provider value={{ ...INERT_SERVICES, routes: tableOf(config) }}>
        <ThirdPartiesContext.Provider value={createThirdParties({ consent: serverConsent() })}>
          <Routes>
            <Route element={<Layout />}>
              <Route
                path="*"
                element={
                  <RemotePart remote={remote}>
                    <Slot />
                  </RemotePart>
                }
              />
            </Route>
          </Routes>
        </ThirdPartiesContext.Provider>
      </AppServicesContext.Provider>
    </StaticRouter>,
  );
  const slot = `<${SLOT}></${SLOT}>`;
  if (!html.includes(slot)) throw new Error(`The ${layout} layout rendered no page`);
  return html.replace(slot, () => pageHtml);
}
