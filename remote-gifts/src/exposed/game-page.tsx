import { PageQueryProvider } from 'shared/browser/api/query-provider';
import { GameScreen } from '../features/game/components/game-screen';

export default function GamePage() {
  return (
    <PageQueryProvider>
      <GameScreen />
    </PageQueryProvider>
  );
}
