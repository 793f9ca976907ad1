import { PageQueryProvider } from 'shared/browser/api/query-provider';
import { ContentPage } from '../features/content/components/content-page';

// "Updated": this build's date, which webpack writes into this module. The legal pages carry
// the date written in their own text instead.
export default function AboutPage() {
  return (
    <PageQueryProvider>
      <ContentPage page="about" updatedAt={__BUILD_TIMESTAMP__} />
    </PageQueryProvider>
  );
}
