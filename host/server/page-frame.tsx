/** The host's frame of a page, the app's own components with inert services, so the app takes over unseen. */
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

/** An element no component renders, replaced after rendering. */
const SLOT = 'gift-box-page-slot';

const idle = () => undefined;
const INERT_SERVICES = {
  remotes: { load: () => new Promise(idle), prefetch: idle, reset: idle },
  versionCheck: { isStale: () => false, start: idle, trackRemote: () => Promise.resolve(), prepareNavigation: idle },
  reloadOnce: () => false,
  apiActivity: { subscribe: () => idle, isActive: () => false },
} as unknown as AppServices;

/** What a first visit shows before the app starts its third parties. */
const serverConsent = () =>
  createConsentStore({
    storage: () => ({ getItem: () => null }) as unknown as Storage,
    events: { addEventListener: idle, removeEventListener: idle },
    now: () => new Date(),
  });

export interface PageFrameOptions {
  pathname: string;
  layout: LayoutName;
  remote: string;
  /** Sanitised. */
  pageHtml: string;
  config: RuntimeConfig;
}

/** Built once per configuration. */
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
