import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { GiftView, PlayResult } from 'shared/api/contract';
import { formatPrizeValue } from 'shared/format';
import { Icon } from 'shared/browser/icons/icon';
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

  if (result.outcome === 'win') return <WinOutcome gift={result.gift} playAgain={playAgain} />;

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
      {playAgain ? (
        <div className="p-game__actions">{playAgain}</div>
      ) : (
        <p>That was your last play for today. Come back tomorrow for another go.</p>
      )}
    </OutcomePanel>
  );
}

function WinOutcome({ gift, playAgain }: { gift: GiftView; playAgain: ReactNode }) {
  return (
    <OutcomePanel tone="win" title="You won!">
      <p className="p-game__prize">
        <Icon icon={gift.prize.icon} size="3rem" className="p-game__prize-icon" />
        <span className="p-game__prize-name">{gift.prize.name}</span>
        <span className="p-game__prize-value">{formatPrizeValue(gift.prize.value)}</span>
      </p>
      <div className="p-game__actions">
        <Link className="p-button p-button--primary p-game__cta" to={`/gifts/${encodeURIComponent(gift.giftId)}`}>
          Open your gift
        </Link>
        {playAgain}
      </div>
      <p className="p-game__hint">Your gift has its own link: open it now, or keep the link to redeem it later.</p>
    </OutcomePanel>
  );
}
