import { formatComeBack } from '../../../utils/format-come-back';
import { OutcomePanel } from './outcome-panel';

/** The server's play limit (429): not an error, the end of today's game, with when plays come back. */
export function LimitReached({ resetAt }: { resetAt: string | undefined }) {
  const when = resetAt === undefined ? 'tomorrow' : formatComeBack(new Date(resetAt));
  return (
    <OutcomePanel tone="over" title="You've used all your plays for today">
      <p>Come back {when} to play again.</p>
    </OutcomePanel>
  );
}
