interface ContentErrorProps {
  message: string;
  onRetry: () => void;
}

/** A failed payload is a normal state of the page, with a way out that keeps the layout. */
export function ContentError({ message, onRetry }: ContentErrorProps) {
  return (
    <div className="p-content__error" role="alert">
      <h1 className="p-content__title">This page didn’t load</h1>
      <p>{message}</p>
      <button type="button" className="p-button" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}
