/**
 * One error body, `{ statusCode, statusMessage, message }`, for every failure: our HttpErrors,
 * schema failures (a malformed id in the path is a 404: it cannot exist), Fastify's body
 * parsing errors, unknown routes, and anything unexpected (500, logged, no details leaked).
 * Also what Fastify answers before any route or hook runs (a URL it cannot decode, a path
 * parameter over its length) and what Node refuses before Fastify sees a request (a request it
 * cannot parse, headers or a URL over its size, one that took too long to arrive).
 */
import { STATUS_CODES } from 'node:http';
import { type Socket } from 'node:net';
import { type ConnectionError, type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { type ApiErrorBody } from 'shared/api/contract';
import { HttpError, reasonPhrase } from 'shared/http-error';
import { type App } from '../app-context';
import { DatabaseUnavailableError } from '../db/database';
import { TooManyRequestsError } from './errors';

/** How long a client should wait after a 503 caused by the database (a restart takes seconds). */
export const DATABASE_RETRY_AFTER_SECONDS = 2;
const UNAVAILABLE_MESSAGE = 'The service is briefly unavailable. Try again in a moment.';

/** Node's reason phrases (the same as shared's) also name the statuses only Node and Fastify answer (414, 431). */
export function errorBody(statusCode: number, message: string): ApiErrorBody {
  return { statusCode, statusMessage: STATUS_CODES[statusCode] ?? reasonPhrase(statusCode), message };
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
    // Fastify's messages for these repeat the whole path.
    case 'FST_ERR_BAD_URL':
      return errorBody(400, 'The request URL is not valid: it has a malformed %-escape.');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return errorBody(414, 'The request URL is too long.');
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

/**
 * Fastify's `frameworkErrors`: what it finds before routing (a URL it cannot decode, a path
 * parameter over `maxParamLength`), answered like every other error instead of in its own shape.
 */
export function frameworkErrorHandler(bodyLimit: number) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    void sendError(error, request, reply, bodyLimit);
  };
}

/** What Node's HTTP parser refused, by its error code: the status and our words for it. */
function clientErrorBody(code: string): ApiErrorBody {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return errorBody(408, 'The request took too long to arrive.');
  if (code === 'HPE_HEADER_OVERFLOW') return errorBody(431, 'The request URL or its headers are too long.');
  return errorBody(400, 'The request could not be read: it is not valid HTTP.');
}

/**
 * Fastify's `clientErrorHandler`: Node could not read a request (malformed, too large, too slow),
 * so no route, hook or reply exists. Answers on the socket itself in the one error shape, with
 * the headers every answer has, then closes the connection, as Fastify's own handler does.
 */
export function answerClientError(error: ConnectionError, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const payload = clientErrorBody(error.code);
    const body = JSON.stringify(payload);
    socket.write(
      [
        `HTTP/1.1 ${payload.statusCode} ${payload.statusMessage}`,
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(body)}`,
        'Cache-Control: no-store',
        'X-Content-Type-Options: nosniff',
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
    );
  }
  socket.destroy(error);
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
