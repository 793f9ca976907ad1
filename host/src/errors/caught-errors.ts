/**
 * What the console gets for an error a route's error page caught while a page rendered. React
 * logs each with its stack by default; an expected outcome (a 4xx: a gift that does not exist,
 * a wrong link) is not a fault, so it gets the one line the error page logs (route-error.tsx)
 * and no stack. Anything else is logged as React would.
 */
import type { ErrorInfo } from 'react';
import { describeError } from './describe-error';

export function isExpectedError(error: unknown): boolean {
  const { statusCode } = describeError(error);
  return statusCode >= 400 && statusCode < 500;
}

export function onCaughtError(error: unknown, info: ErrorInfo): void {
  if (isExpectedError(error)) return;
  console.error(error, info.componentStack ? `\nThe error occurred in:${info.componentStack}` : '');
}

/**
 * The router's handler for the errors its routes catch. React Router logs each caught error
 * with its stack unless it is given one; the error page does the logging (route-error.tsx), so
 * the router logs nothing of its own.
 */
export function onRouterError(): void {}

/** The one line an expected error gets. */
export function logExpectedError(error: unknown): void {
  const { statusCode, message } = describeError(error);
  console.log(`[gift box] ${statusCode}: ${message}`);
}
