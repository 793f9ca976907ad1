/** `/game`: pick one of three boxes; the server decides what is inside. */
import { useRef } from 'react';
import { flushSync } from 'react-dom';
import { InlineError } from 'shared/browser/feedback/inline-error';
import { useDocumentTitle } from 'shared/browser/use-document-title';
import { usePlay } from '../api/play';
import { useReveal } from '../hooks/use-reveal';
import { BoxPicker } from './box-picker';
import { LimitReached } from './limit-reached';
import { PlayOutcome } from './play-outcome';
import { PlaysLeft } from './plays-left';
import { YourGifts } from './your-gifts';
import './game-screen.css';

export function GameScreen() {
  useDocumentTitle('Play');
  const { state, playsRemaining, playsResetAt, play, retry, reset } = usePlay();
  const done = state.status === 'done' ? state : undefined;
  const { opening, revealed, onOpened } = useReveal(done?.result, done?.resumed);
  const firstBox = useRef<HTMLButtonElement>(null);
  const picked = state.status === 'pending' || state.status === 'done' ? state.box : undefined;
  const limitReached = state.status === 'failed' && state.failure.statusCode === 429;

  const playAgain = () => {
    // The button that was clicked disappears; the boxes must be enabled before one takes the focus.
    flushSync(reset);
    firstBox.current?.focus();
  };

  return (
    <section className="p-game" aria-labelledby="p-game-title">
      <h1 id="p-game-title" className="p-game__title">
        Pick a box
      </h1>
      <p className="p-game__intro">Three wrapped boxes, one pick. If yours holds a prize, it is yours to keep.</p>
      <PlaysLeft count={playsRemaining} />

      <BoxPicker
        picked={picked}
        pickedState={state.status === 'pending' ? 'shaking' : opening ? 'opening' : 'open'}
        pickedContents={done?.result.outcome === 'win' ? 'prize' : 'empty'}
        disabled={state.status === 'pending' || done !== undefined || limitReached}
        onPick={play}
        onOpened={onOpened}
        firstBoxRef={firstBox}
      />
      <p className="p-game__status" role="status">
        {state.status === 'pending' ? `Opening box ${state.box}…` : ''}
      </p>

      {done && revealed && <PlayOutcome box={done.box} result={done.result} onPlayAgain={playAgain} />}
      {limitReached && <LimitReached resetAt={playsResetAt} />}
      {state.status === 'failed' && !limitReached && (
        <InlineError
          title="Your play didn't go through"
          message={state.failure.message}
          onRetry={state.failure.retryable ? retry : undefined}
        />
      )}
      <YourGifts />
    </section>
  );
}
