import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { GiftView, PlayResult } from 'shared/api/contract';
import { formatPrizeValue } from 'shared/format';
import { Icon } from 'shared/browser/icons/icon';
import { formatComeBack } from '../../../utils/format-come-back';
import { GiftLink } from './gift-link';
import { OutcomePanel } from './outcome-panel';

interface PlayOutcomeProps {
  box: number;
  result: PlayResult;
  onPlayAgain: () => void;
}

export function PlayOutcome({ box, result, onPlayAgain }: PlayOutcomeProps) {
  const playAgain = result.playsRemaining > 0 && (
    <button
      type="button"
      className={`p-button${result.outcome === 'lose' ? ' p-button--primary' : ''}`}
      onClick={onPlayAgain}
    >
      Play again
    </button>
  );

  const lastPlay = !playAgain && (
    <p>That was your last play for today. New plays {formatComeBack(new Date(result.playsResetAt))}.</p>
  );
  if (result.outcome === 'win') return <WinOutcome gift={result.gift} playAgain={playAgain} lastPlay={lastPlay} />;

  if (result.soldOut) {
    return (
      <OutcomePanel tone="over" title="All prizes have been won">
        <p>Every prize in this promotion has found its winner, so nobody can win any more. Thank you for playing!</p>
      </OutcomePanel>
    );
  }

  return (
    <OutcomePanel tone="lose" title="Not this time">
      <p>Box {box} was empty.</p>
      {playAgain ? <div className="p-game__actions">{playAgain}</div> : lastPlay}
    </OutcomePanel>
  );
}

function WinOutcome({ gift, playAgain, lastPlay }: { gift: GiftView; playAgain: ReactNode; lastPlay: ReactNode }) {
  const path = `/gifts/${encodeURIComponent(gift.giftId)}`;
  return (
    <OutcomePanel tone="win" title="You won!">
      <p className="p-game__prize">
        <Icon icon={gift.prize.icon} size="3rem" className="p-game__prize-icon" />
        <span className="p-game__prize-name">{gift.prize.name}</span>
        <span className="p-game__prize-value">{formatPrizeValue(gift.prize.value)}</span>
      </p>
      <div className="p-game__actions">
        <Link className="p-button p-button--primary p-game__cta" to={path}>
          Open your gift
        </Link>
        {playAgain}
      </div>
      <p className="p-game__hint">
        Your gift has its own link: keep it to redeem the gift later, on any device. It is listed under “Your gifts” on
        this page too, in this browser.
      </p>
      <GiftLink url={new URL(path, window.location.href).href} prizeName={gift.prize.name} />
      {lastPlay}
    </OutcomePanel>
  );
}
