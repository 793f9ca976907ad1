import { ContentPage } from '../features/content/components/content-page';

export default function TermsPage() {
  return <ContentPage page="terms" />;
}
