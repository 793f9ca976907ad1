import { PageQueryProvider } from 'shared/browser/api/query-provider';
import { ContentPage } from '../features/content/components/content-page';

export default function PrivacyPolicyPage() {
  return (
    <PageQueryProvider>
      <ContentPage page="privacy-policy" />
    </PageQueryProvider>
  );
}
