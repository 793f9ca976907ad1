import { PageQueryProvider } from 'shared/browser/api/query-provider';
import { ContentPage } from '../features/content/components/content-page';
import { PlayNowLink } from '../features/content/components/play-now-link';

// "Updated": this build's date, which webpack writes into this module. The legal pages carry
// the date written in their own text instead.
export default function HomePage() {
  return (
    <PageQueryProvider>
      <ContentPage page="home" updatedAt={__BUILD_TIMESTAMP__} actions={<PlayNowLink />} />
    </PageQueryProvider>
  );
}
