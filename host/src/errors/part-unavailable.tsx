/**
 * A part of the site whose code could not be loaded (its remote is down, or a download failed
 * on the way): said in plain words, with "Try again". What failed, for whoever looks into it,
 * is in the console and in a collapsed "Details".
 */
import { Link } from 'react-router-dom';
import './error-page.css';

export interface PartUnavailableProps {
  /** The technical detail: the remote, the module and the cause, as the loader reported it. */
  details: string;
  onRetry?: () => void;
}

export function PartUnavailable({ details, onRetry }: PartUnavailableProps) {
  return (
    <section className="p-error" role="alert" aria-labelledby="p-error-title" data-status="unavailable">
      <h1 id="p-error-title" className="p-error__title">
        This part of the site is unavailable right now
      </h1>
      <p className="p-error__message">It should be back shortly. Please try again in a moment.</p>
      <div className="p-error__actions">
        {onRetry && (
          <button type="button" className="p-button p-button--primary" onClick={onRetry}>
            Try again
          </button>
        )}
        <Link className="p-button" to="/">
          Back to home
        </Link>
      </div>
      <details className="p-error__details">
        <summary>Details</summary>
        <p>{details}</p>
      </details>
    </section>
  );
}
