import { PageQueryProvider } from 'shared/browser/api/query-provider';
import { ContentPage } from '../features/content/components/content-page';

export default function TermsPage() {
  return (
    <PageQueryProvider>
      <ContentPage page="terms" />
    </PageQueryProvider>
  );
}
