import { PageQueryProvider } from 'shared/browser/api/query-provider';
import { GiftScreen } from '../features/gift/components/gift-screen';

export default function GiftPage() {
  return (
    <PageQueryProvider>
      <GiftScreen />
    </PageQueryProvider>
  );
}
