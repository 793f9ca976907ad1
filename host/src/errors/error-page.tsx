/**
 * The generic error page: status code, status message and the error's message, all as text,
 * with a way back home and, where trying again can help, a retry.
 */
import { Link } from 'react-router-dom';
import './error-page.css';

export function statusMessageFor(statusCode: number): string {
  return statusCode === 404 ? 'Page Not Found' : 'Internal Server Error';
}

export interface ErrorPageProps {
  statusCode?: number;
  message: string;
  onRetry?: () => void;
  /** Outside the router (fatal errors), home is a full page load. */
  homeAsDocumentLink?: boolean;
}

export function ErrorPage({ statusCode = 500, message, onRetry, homeAsDocumentLink = false }: ErrorPageProps) {
  return (
    <section className="p-error" role="alert" aria-labelledby="p-error-title" data-status={statusCode}>
      <p className="p-error__code">{statusCode}</p>
      <h1 id="p-error-title" className="p-error__title">
        {statusMessageFor(statusCode)}
      </h1>
      <p className="p-error__message">{message}</p>
      <div className="p-error__actions">
        {onRetry && (
          <button type="button" className="p-button p-button--primary" onClick={onRetry}>
            Try again
          </button>
        )}
        {homeAsDocumentLink ? (
          <a className="p-button" href="/">
            Back to home
          </a>
        ) : (
          <Link className="p-button" to="/">
            Back to home
          </Link>
        )}
      </div>
    </section>
  );
}
