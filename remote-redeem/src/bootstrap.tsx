import { renderStandalone } from 'shared/browser/standalone-shell';
import RedeemPage from './exposed/redeem-page';

renderStandalone('Redeem', [
  { path: '/redeem/:redeemId', example: '/redeem/AAAAAAAAAAAAAAAAAAAAAAAA', element: <RedeemPage /> },
]);
