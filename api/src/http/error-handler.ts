/**
 * One error body, `{ statusCode, statusMessage, message }`, for every failure: our HttpErrors,
 * schema failures (a malformed id in the path is a 404: it cannot exist), Fastify's body
 * parsing errors, unknown routes, and anything unexpected (500, logged, no details leaked).
 */
import { type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { type ApiErrorBody } from 'shared/api/contract';
import { HttpError, reasonPhrase } from 'shared/http-error';
import { type App } from '../app-context';
import { DatabaseUnavailableError } from '../db/database';
import { TooManyRequestsError } from './errors';

/** How long a client should wait after a 503 caused by the database (a restart takes seconds). */
export const DATABASE_RETRY_AFTER_SECONDS = 2;
const UNAVAILABLE_MESSAGE = 'The service is briefly unavailable. Try again in a moment.';

export function errorBody(statusCode: number, message: string): ApiErrorBody {
  return { statusCode, statusMessage: reasonPhrase(statusCode), message };
}

function describeIssues(issues: { instancePath: string; message?: string }[]): string {
  return issues
    .slice(0, 5)
    .map((issue) => {
      const field = issue.instancePath.replace(/^\//, '').replace(/\//g, '.');
      return field ? `${field}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

/** Fastify's own client errors, in our words; the statuses the contract names. */
function fromFastifyError(error: FastifyError, bodyLimit: number): ApiErrorBody | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return errorBody(400, `The request body is too large: at most ${bodyLimit} bytes.`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return errorBody(400, 'Send the request body as JSON (Content-Type: application/json).');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return errorBody(400, 'The request body is not valid JSON.');
    default:
      break;
  }
  const status = error.statusCode;
  if (status !== undefined && status >= 400 && status < 500) return errorBody(status, error.message);
  return undefined;
}

export function toErrorBody(error: FastifyError, request: FastifyRequest, bodyLimit: number): ApiErrorBody | undefined {
  if (hasZodFastifySchemaValidationErrors(error)) {
    if (error.validationContext === 'params')
      return errorBody(404, request.routeOptions.config.notFoundMessage ?? 'Not found.');
    const part = error.validationContext === 'body' ? 'request body' : (error.validationContext ?? 'request');
    return errorBody(400, `Invalid ${part}: ${describeIssues(error.validation)}`);
  }
  if (error instanceof HttpError) return errorBody(error.statusCode, error.message);
  if (error instanceof DatabaseUnavailableError) return errorBody(503, UNAVAILABLE_MESSAGE);
  if (error.validation) return errorBody(400, `Invalid request: ${error.message}`);
  return fromFastifyError(error, bodyLimit);
}

/** Answers `error` in the one error shape (what the app's error handler does; a route's own handler may call it). */
export function sendError(error: FastifyError, request: FastifyRequest, reply: FastifyReply, bodyLimit: number) {
  const known = toErrorBody(error, request, bodyLimit);
  if (!known) request.log.error({ err: error }, 'request failed');
  if (error instanceof TooManyRequestsError) void reply.header('retry-after', String(error.retryAfterSeconds));
  if (error instanceof DatabaseUnavailableError) {
    // An operational event, not a bug: one line, no stack.
    request.log.warn({ reason: error.reason.message }, 'database unavailable');
    void reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
  }
  const payload = known ?? errorBody(500, 'Internal Server Error');
  return reply.code(payload.statusCode).type('application/json; charset=utf-8').send(payload);
}

export function installErrorHandlers(app: App, bodyLimit: number): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) =>
    sendError(error, request, reply, bodyLimit),
  );

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const shown = path.length > 200 ? `${path.slice(0, 200)}…` : path;
    return reply.code(404).send(errorBody(404, `No API route for ${request.method} ${shown}.`));
  });
}
