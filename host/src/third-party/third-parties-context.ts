import { createContext, useContext } from 'react';
import type { ThirdParties } from './third-parties';

/** The app's one ThirdParties, for the banner, the footer's buttons, the layouts and the root frame. */
export const ThirdPartiesContext = createContext<ThirdParties | null>(null);

export function useThirdParties(): ThirdParties {
  const thirdParties = useContext(ThirdPartiesContext);
  if (!thirdParties) throw new Error('useThirdParties must be used inside ThirdPartiesContext');
  return thirdParties;
}
