import { PageQueryProvider } from 'shared/api/query-provider';
import { RedeemScreen } from '../features/redeem/components/redeem-screen';

export default function RedeemPage() {
  return (
    <PageQueryProvider>
      <RedeemScreen />
    </PageQueryProvider>
  );
}
