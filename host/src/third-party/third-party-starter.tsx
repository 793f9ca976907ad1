/** Starts the app's third parties from its first committed render (an effect), once. */
import { useEffect } from 'react';
import type { RuntimeConfig } from 'shared/runtime-config';
import type { RouterLike } from './after-first-paint';
import { useThirdParties } from './third-parties-context';

export function ThirdPartyStarter({ config, router }: { config: RuntimeConfig; router: RouterLike }) {
  const thirdParties = useThirdParties();
  useEffect(() => {
    void thirdParties.start(config, router);
  }, [thirdParties, config, router]);
  return null;
}
