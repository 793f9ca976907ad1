import { renderStandalone } from 'shared/browser/standalone-shell';
import GamePage from './exposed/game-page';
import GiftPage from './exposed/gift-page';

renderStandalone('Gifts', [
  { path: '/game', example: '/game', element: <GamePage /> },
  { path: '/gifts/:giftId', example: '/gifts/AAAAAAAAAAAAAAAAAAAAAAAA', element: <GiftPage /> },
]);
