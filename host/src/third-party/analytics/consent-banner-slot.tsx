/**
 * Where the consent banner goes: it is drawn once it is open, which it is only after analytics
 * has started, after the first page; its code is in the chunk analytics came in (later.ts), so it
 * costs the page's first script nothing and its opening no second request.
 */
import { lazy, Suspense } from 'react';
import { useThirdParties } from '../third-parties-context';
import { bannerOpen } from './consent-store';
import { useConsent } from './use-consent';

const ConsentBanner = lazy(() =>
  import(/* webpackChunkName: "third-parties" */ './consent-banner').then((banner) => ({
    default: banner.ConsentBanner,
  })),
);

export function ConsentBannerSlot() {
  const { consent } = useThirdParties();
  if (!bannerOpen(useConsent(consent))) return null;
  return (
    <Suspense fallback={null}>
      <ConsentBanner />
    </Suspense>
  );
}
