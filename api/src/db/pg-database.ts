/**
 * A `pg` pool to PostgreSQL (`DATABASE_URL`). A restart or network cut is ordinary: every client's
 * `error` is handled (unhandled, it kills the process) and only the requests on a lost connection fail (503).
 */
import { Client, Pool, type PoolClient } from 'pg';
import { type Database, DatabaseUnavailableError, type Queryable, type Subscriber } from './database';
import { redactDatabaseError } from './redact-error';

const RETRYABLE = new Set(['40001', '40P01']);
const MAX_ATTEMPTS = 3;
/** A request waits at most this long for a connection (default: forever) before it answers 503. */
const CONNECT_TIMEOUT_MS = 5_000;
/** No statement runs longer than this: a stuck query must not hold a request and a connection. */
const STATEMENT_TIMEOUT_MS = 10_000;
/** A transaction left idle (a bug, a stalled process) gives its locks back. */
const IDLE_IN_TRANSACTION_TIMEOUT_MS = 30_000;
/** The client gives up on an answer that never comes (a server that vanished mid-query). */
const QUERY_TIMEOUT_MS = STATEMENT_TIMEOUT_MS + 5_000;
const KEEPALIVE_DELAY_MS = 10_000;
/** pg's 10 s default makes the burst after a lull wait for new connections (p99 up to 300 ms). */
const IDLE_TIMEOUT_MS = 5 * 60_000;

export interface PgOptions {
  poolSize?: number;
  /** Told of connection failures that no request saw (an idle or checked-out client dropped). */
  onConnectionError?: (error: Error) => void;
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}

const SOCKET_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
// Class 08: connection exception; 57P01–57P03: the server is shutting down, crashed or starting.
const SERVER_GONE = /^(08...|57P0[123])$/;
// pg reports a lost socket, and a checked-out client that lost it, without a code.
const LOST_CONNECTION =
  /Connection terminated|not queryable|timeout exceeded when trying to connect|Query read timeout/i;

export function isConnectionFailure(error: unknown): boolean {
  const code = errorCode(error);
  if (code !== undefined && (SOCKET_ERRORS.has(code) || SERVER_GONE.test(code))) return true;
  return error instanceof Error && code === undefined && LOST_CONNECTION.test(error.message);
}

function unavailableOr(error: unknown): unknown {
  return isConnectionFailure(error) ? new DatabaseUnavailableError(error as Error) : error;
}

function wrap(client: Pick<PoolClient, 'query'>): Queryable {
  return {
    async query<T>(sql: string, params: readonly unknown[] = []) {
      try {
        const result = await client.query(sql, [...params]);
        return result.rows as T[];
      } catch (error) {
        throw redactDatabaseError(error, params);
      }
    },
    async exec(sql: string) {
      try {
        await client.query(sql);
      } catch (error) {
        throw redactDatabaseError(error);
      }
    },
  };
}

const LISTEN_RETRY_MS = [250, 1_000, 2_000, 5_000];

/**
 * A dedicated connection that LISTENs on one channel, reconnecting after a loss (a restart):
 * the subscriber hears of the gap at once and of the recovery once LISTEN runs again.
 */
function listenOn(
  url: string,
  channel: string,
  subscriber: Subscriber,
  reportLost: (error: Error) => void,
): () => Promise<void> {
  let closed = false;
  let client: Client | undefined;
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;
  const retry = () => {
    if (closed || timer) return;
    const delay = LISTEN_RETRY_MS[Math.min(failures, LISTEN_RETRY_MS.length - 1)] ?? 5_000;
    failures += 1;
    timer = setTimeout(() => {
      timer = undefined;
      void connect();
    }, delay);
    timer.unref();
  };
  const connect = async () => {
    const current = new Client({
      connectionString: url,
      keepAlive: true,
      keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    client = current;
    let lost = false;
    const onLost = (error: Error) => {
      if (lost) return;
      lost = true;
      reportLost(error);
      subscriber.gap();
      current.end().catch(() => undefined);
      retry();
    };
    current.on('error', onLost);
    current.on('end', () => onLost(new Error('the notification connection ended')));
    current.on('notification', (notification) => {
      if (notification.channel === channel) subscriber.message(notification.payload ?? '');
    });
    try {
      await current.connect();
      // Identifiers cannot be parameters; the channel is one of ours, quoted.
      await current.query(`LISTEN "${channel.replace(/"/g, '""')}"`);
    } catch (error) {
      onLost(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    if (closed) {
      await current.end().catch(() => undefined);
      return;
    }
    failures = 0;
    subscriber.resumed();
  };
  void connect();
  return async () => {
    closed = true;
    if (timer) clearTimeout(timer);
    await client?.end().catch(() => undefined);
  };
}

function createPool(url: string, poolSize: number): Pool {
  return new Pool({
    connectionString: url,
    max: poolSize,
    idleTimeoutMillis: IDLE_TIMEOUT_MS,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    statement_timeout: STATEMENT_TIMEOUT_MS,
    idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_TIMEOUT_MS,
    // A peer that vanished without closing (a failover, a cut network) is noticed, not awaited.
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
    query_timeout: QUERY_TIMEOUT_MS,
  });
}

type ReportLost = (error: Error) => void;

/** A client whose connection errors are handled while it is checked out; released broken or not. */
async function withClient<T>(pool: Pool, reportLost: ReportLost, work: (client: PoolClient) => Promise<T>): Promise<T> {
  let client: PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw unavailableOr(error);
  }
  let lost: Error | undefined;
  const onError = (error: Error) => {
    lost = error;
    reportLost(error);
  };
  client.on('error', onError);
  let failure: unknown;
  try {
    return await work(client);
  } catch (error) {
    failure = error;
    throw unavailableOr(error);
  } finally {
    client.removeListener('error', onError);
    // A client whose connection failed is destroyed, never handed to the next request.
    const broken = lost ?? (isConnectionFailure(failure) ? (failure as Error) : undefined);
    client.release(broken ?? false);
  }
}

/** Retries deadlocks and serialisation failures: the server rolled the whole transaction back. */
async function inTransaction<T>(pool: Pool, reportLost: ReportLost, work: (tx: Queryable) => Promise<T>): Promise<T> {
  const attempt = () =>
    withClient(pool, reportLost, async (client) => {
      await client.query('BEGIN');
      try {
        const result = await work(wrap(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        // On a lost connection the server rolls back by itself; ROLLBACK then fails, which is fine.
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    });
  for (let tries = 1; ; tries += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (tries >= MAX_ATTEMPTS || !RETRYABLE.has(errorCode(error) ?? '')) throw error;
    }
  }
}

export function openPostgres(url: string, options: PgOptions = {}): Database {
  const pool = createPool(url, options.poolSize ?? 10);
  const reportLost = (error: Error) => options.onConnectionError?.(error);
  // An idle connection dropped by the server: the pool removes it and opens another when needed.
  pool.on('error', reportLost);
  const stops = new Set<() => Promise<void>>();
  return {
    driver: 'postgres',
    query: (sql, params) => withClient(pool, reportLost, (client) => wrap(client).query(sql, params)),
    exec: (sql) => withClient(pool, reportLost, (client) => wrap(client).exec(sql)),
    transaction: (work) => inTransaction(pool, reportLost, work),
    async listen(channel, subscriber) {
      // Nothing is heard until LISTEN has run: a gap until then.
      subscriber.gap();
      const stop = listenOn(url, channel, subscriber, reportLost);
      stops.add(stop);
      return async () => {
        stops.delete(stop);
        await stop();
      };
    },
    async close() {
      await Promise.all([...stops].map((stop) => stop()));
      await pool.end();
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}
