import './inline-error.css';

interface InlineErrorProps {
  title: string;
  message: string;
  onRetry?: () => void;
  /** Nothing else on the page names it in this state. */
  asHeading?: boolean;
}

/** A failed request is a normal state of the page: say what happened, keep the layout, offer a way on. */
export function InlineError({ title, message, onRetry, asHeading = false }: InlineErrorProps) {
  const Title = asHeading ? 'h1' : 'p';
  return (
    <div className="p-inline-error" role="alert">
      <Title className="p-inline-error__title">{title}</Title>
      <p className="p-inline-error__message">{message}</p>
      {onRetry && (
        <button type="button" className="p-button p-button--primary" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}
