import { ContentPage } from '../features/content/components/content-page';

export default function PrivacyPolicyPage() {
  return <ContentPage page="privacy-policy" />;
}
