import { useSyncExternalStore } from 'react';
import { useNavigation, useRevalidator } from 'react-router-dom';
import { useAppServices } from '../app-services';
import './progress.css';

/** The thin bar at the top while a page, its data or an answer from the service is on its way. */
export function ProgressBar({ label = 'Loading page' }: { label?: string }) {
  return <div className="p-progress" role="progressbar" aria-label={label} />;
}

function useApiBusy(): boolean {
  const { apiActivity } = useAppServices();
  return useSyncExternalStore(apiActivity.subscribe, () => apiActivity.pending() > 0);
}

export function NavigationProgress() {
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const apiBusy = useApiBusy();
  if (navigation.state !== 'idle' || revalidator.state === 'loading') return <ProgressBar />;
  // The bar's own delay keeps quick answers from flashing it.
  return apiBusy ? <ProgressBar label="Waiting for the service" /> : null;
}
