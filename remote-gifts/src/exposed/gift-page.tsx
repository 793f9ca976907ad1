import { GiftScreen } from '../features/gift/components/gift-screen';

export default GiftScreen;
