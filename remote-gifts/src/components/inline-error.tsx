import './inline-error.css';

interface InlineErrorProps {
  title: string;
  message: string;
  /** Present when sending the same request again can help. */
  onRetry?: () => void;
}

/** A failed request is a normal state of the page: say what happened, keep the layout, offer a way on. */
export function InlineError({ title, message, onRetry }: InlineErrorProps) {
  return (
    <div className="p-inline-error" role="alert">
      <p className="p-inline-error__title">{title}</p>
      <p className="p-inline-error__message">{message}</p>
      {onRetry && (
        <button type="button" className="p-button p-button--primary" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}
