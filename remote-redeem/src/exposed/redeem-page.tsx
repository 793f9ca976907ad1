import { PageQueryProvider } from 'shared/browser/api/query-provider';
import { RedeemScreen } from '../features/redeem/components/redeem-screen';

export default function RedeemPage() {
  return (
    <PageQueryProvider>
      <RedeemScreen />
    </PageQueryProvider>
  );
}
