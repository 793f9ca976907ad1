import { PageQueryProvider } from 'shared/api/query-provider';
import { ContentPage } from '../features/content/components/content-page';

export default function PrivacyPolicyPage() {
  return (
    <PageQueryProvider>
      <ContentPage page="privacy-policy" />
    </PageQueryProvider>
  );
}
