/**
 * What both telemetry routes share: a body of at most TELEMETRY_MAX_BYTES (413 beyond), a budget
 * per address (429 past it; see address-budget.ts for why it is counted in memory), and every
 * post counted by its result, refusals included. A refused post changes no other series.
 */
import { type FastifyError } from 'fastify';
import { TELEMETRY_MAX_BYTES } from 'shared/telemetry';
import { type App, type AppContext } from '../../app-context';
import { errorBody, sendError } from '../../http/error-handler';
import { TooManyRequestsError } from '../../http/errors';
import { AddressBudget } from '../../limits/address-budget';
import { type KnownOrigin } from './csp-labels';
import { type BatchResult, type TelemetryMetrics } from './telemetry-metrics';

const TOO_LARGE = 'FST_ERR_CTP_BODY_TOO_LARGE';
const LIMITED_MESSAGE = 'Too much telemetry from your network. Try again in a minute.';

function resultOf(error: FastifyError): BatchResult | undefined {
  if (error.code === TOO_LARGE) return 'too_large';
  if (error instanceof TooManyRequestsError) return 'limited';
  const status = error.statusCode ?? 500;
  return status >= 400 && status < 500 ? 'invalid' : undefined;
}

/** Installs the bounds in `scope`, the plugin that holds one telemetry route. */
export function installIntake(scope: App, metrics: TelemetryMetrics, { config, now }: AppContext): void {
  const budget = new AddressBudget({
    limit: config.limits.telemetryBatchesPerIpPerMinute,
    name: 'telemetry posts',
    log: scope.log,
  });
  scope.setErrorHandler((error: FastifyError, request, reply) => {
    const result = resultOf(error);
    if (result) metrics.batches.inc({ result });
    if (error.code === TOO_LARGE)
      return reply
        .code(413)
        .type('application/json; charset=utf-8')
        .send(errorBody(413, `The request body is too large: at most ${TELEMETRY_MAX_BYTES} bytes.`));
    return sendError(error, request, reply, TELEMETRY_MAX_BYTES);
  });
  // Before the body is read: a client past its budget costs no parsing.
  scope.addHook('onRequest', async (request) => {
    const taken = budget.take(request.ip, now());
    if (!taken.ok) throw new TooManyRequestsError(LIMITED_MESSAGE, taken.retryAfterSeconds);
  });
}

/**
 * This deployment's origins: the host's, the remotes' (where their builds are read) and the
 * API's, all from configuration. Never from the request: its Host header is the client's to choose.
 */
export function knownOriginsOf({ config }: AppContext): KnownOrigin {
  const origins = new Set([
    ...Object.values(config.builds.sources).map((url) => new URL(url).origin),
    config.apiOrigin,
  ]);
  return (origin) => origins.has(origin);
}
