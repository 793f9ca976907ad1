import type { CopyStatus } from 'shared/browser/feedback/use-copy-to-clipboard';

/** What the share button did. On a failed copy, the address itself, ready to select by hand. */
export function ShareFeedback({ feedback }: { feedback: CopyStatus }) {
  return (
    <>
      {/* Always in the page: a live region must exist before its text changes to be heard. */}
      <p className="p-gift__feedback" role="status" data-tone={feedback === 'idle' ? undefined : feedback}>
        {feedback === 'copied' && 'Link copied'}
        {feedback === 'failed' && 'Copy failed: select and copy the address'}
      </p>
      {feedback === 'failed' && (
        <input
          className="p-gift__link"
          type="text"
          readOnly
          aria-label="Gift link"
          value={window.location.href}
          onFocus={(event) => event.currentTarget.select()}
        />
      )}
    </>
  );
}
