import { useParams } from 'react-router-dom';
import { isValidId } from 'shared/ids';
import { redeemNotFound } from '../api/get-redeem';
import { RedeemSession } from './redeem-session';

export function RedeemScreen() {
  const { redeemId = '' } = useParams();
  // The standalone shell has no route validator: a malformed id is not worth an API request.
  if (!isValidId(redeemId)) throw redeemNotFound();
  // A new session is a new page: no form values carry over.
  return <RedeemSession key={redeemId} redeemId={redeemId} />;
}
