import { useParams } from 'react-router-dom';
import { isValidId } from 'shared/ids';
import { redeemNotFound } from '../api/get-redeem';
import { RedeemSession } from './redeem-session';

/** The `/redeem/:redeemId` page. */
export function RedeemScreen() {
  const { redeemId = '' } = useParams();
  // The host's route validator refuses a malformed id before this remote loads; the standalone
  // shell has no validator, and the API need not be asked about an id that cannot exist.
  if (!isValidId(redeemId)) throw redeemNotFound();
  // A new session is a new page: no form values carry over from another one.
  return <RedeemSession key={redeemId} redeemId={redeemId} />;
}
