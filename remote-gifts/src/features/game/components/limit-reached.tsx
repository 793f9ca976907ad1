import { formatWait } from '../../../utils/format-wait';
import { OutcomePanel } from './outcome-panel';

/** The server's play limit (429): not an error, the end of today's game. */
export function LimitReached({ retryAfterSeconds }: { retryAfterSeconds: number | undefined }) {
  const when = retryAfterSeconds === undefined ? 'tomorrow' : `in ${formatWait(retryAfterSeconds)}`;
  return (
    <OutcomePanel tone="over" title="You've used all your plays for today">
      <p>Come back {when} to play again.</p>
    </OutcomePanel>
  );
}
