import { ContentPage } from '../features/content/components/content-page';
import { PlayNowLink } from '../features/content/components/play-now-link';

export default function HomePage() {
  return <ContentPage page="home" actions={<PlayNowLink />} />;
}
