import type { ShareFeedback as Feedback } from '../hooks/use-share-link';

/** What the share button did. On a failed copy, the address itself, ready to select by hand. */
export function ShareFeedback({ feedback }: { feedback: Feedback | undefined }) {
  return (
    <>
      {/* Always in the page: a live region must exist before its text changes to be heard. */}
      <p className="p-gift__feedback" role="status" data-tone={feedback}>
        {feedback === 'copied' && 'Link copied'}
        {feedback === 'copy-failed' && 'Copy failed: select and copy the address'}
      </p>
      {feedback === 'copy-failed' && (
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
