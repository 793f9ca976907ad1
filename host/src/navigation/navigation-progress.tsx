import { useNavigation, useRevalidator } from 'react-router-dom';
import './progress.css';

/** The thin bar at the top while a route's page or data is on its way. */
export function ProgressBar() {
  return <div className="p-progress" role="progressbar" aria-label="Loading page" />;
}

export function NavigationProgress() {
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const busy = navigation.state !== 'idle' || revalidator.state === 'loading';
  return busy ? <ProgressBar /> : null;
}
