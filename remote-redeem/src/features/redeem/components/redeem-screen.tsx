import { useParams } from 'react-router-dom';

export function RedeemScreen() {
  const { redeemId = '' } = useParams();
  return (
    <section aria-labelledby="redeem-title">
      <h1 id="redeem-title">Redeem your gift</h1>
      <p>
        Redeem session <code>{redeemId}</code>
      </p>
    </section>
  );
}
