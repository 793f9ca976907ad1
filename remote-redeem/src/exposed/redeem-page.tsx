import { RedeemScreen } from '../features/redeem/components/redeem-screen';

export default RedeemScreen;
