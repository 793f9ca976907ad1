interface LoadErrorProps {
  message: string;
  onRetry: () => void;
}

/** The API did not answer: a normal state of the page, with a way out that keeps the layout. */
export function LoadError({ message, onRetry }: LoadErrorProps) {
  return (
    <section className="p-redeem" role="alert">
      <h1 className="p-redeem__title">Your gift didn’t load</h1>
      <p className="p-redeem__text">{message}</p>
      <div className="p-redeem__actions">
        <button type="button" className="p-button p-button--primary" onClick={onRetry}>
          Try again
        </button>
      </div>
    </section>
  );
}
