/** Any error a route can end in, as the status and message the error page shows. */
import { isRouteErrorResponse } from 'react-router-dom';
import { errorMessage, isHttpError } from 'shared/http-error';

export interface ErrorView {
  statusCode: number;
  message: string;
}

export function describeError(error: unknown): ErrorView {
  if (isRouteErrorResponse(error)) {
    const data: unknown = error.data;
    return { statusCode: error.status, message: typeof data === 'string' && data ? data : error.statusText };
  }
  if (isHttpError(error)) return { statusCode: error.statusCode, message: error.message };
  return { statusCode: 500, message: errorMessage(error) };
}
