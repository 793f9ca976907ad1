import { ContentPage } from '../features/content/components/content-page';

export default function AboutPage() {
  return <ContentPage page="about" />;
}
