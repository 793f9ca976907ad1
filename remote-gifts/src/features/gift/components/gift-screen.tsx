import { useParams } from 'react-router-dom';
import './gift-screen.css';

export function GiftScreen() {
  const { giftId = '' } = useParams();
  return (
    <section className="p-gift" aria-labelledby="gift-title">
      <h1 id="gift-title" className="p-gift__title">
        Your gift
      </h1>
      <p className="p-gift__id">
        Gift <code>{giftId}</code>
      </p>
    </section>
  );
}
