import { GameScreen } from '../features/game/components/game-screen';

export default GameScreen;
