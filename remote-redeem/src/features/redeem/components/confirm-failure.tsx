import type { CompleteFailure } from '../api/complete-redeem';

interface ConfirmFailureProps {
  failure: CompleteFailure;
  onRetry: () => void;
}

function waitFor(seconds: number | undefined): string {
  if (seconds === undefined) return 'a moment';
  return seconds === 1 ? '1 second' : `${seconds} seconds`;
}

/** Why confirming did not work, next to the button that will try again. */
export function ConfirmFailure({ failure, onRetry }: ConfirmFailureProps) {
  return (
    <div className="p-redeem__alert" role="alert">
      {failure.kind === 'unreachable' && (
        <>
          <p>We could not reach the server. Your gift is not redeemed twice if you try again.</p>
          <button type="button" className="p-button" onClick={onRetry}>
            Try again
          </button>
        </>
      )}
      {failure.kind === 'rate-limited' && <p>Too many attempts; try again in {waitFor(failure.retryAfterSeconds)}.</p>}
      {failure.kind === 'rejected' && <p>{failure.message}</p>}
    </div>
  );
}
