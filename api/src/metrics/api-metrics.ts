/** The API's series (docs/operations.md); every label value from a small known set, never an id. */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { type PoolStats } from '../db/database';

export type DatabaseErrorKind = 'unavailable' | 'query';

export interface ApiMetrics {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  databaseErrors: Counter<'kind'>;
  plays: Counter<'outcome'>;
  giftsOpened: Counter;
  redeemsCompleted: Counter;
  conflicts: Counter<'route'>;
  unavailable: Counter<'route'>;
  /** Read at each scrape: the PostgreSQL pool's connections (none with PGlite). */
  watchPool(stats: () => PoolStats): void;
}

/** Gift reads are sub-millisecond, transactions a few ms, a stalled database seconds. */
const HTTP_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createApiMetrics(registry: Registry): ApiMetrics {
  const registers = [registry];
  let poolStats: (() => PoolStats) | undefined;
  new Gauge({
    name: 'giftbox_db_pool_connections',
    help: 'The PostgreSQL pool: connections open ("total"), of which idle ("idle"), and requests waiting for one ("waiting").',
    labelNames: ['state'],
    registers,
    // Read when scraped: nothing to keep current on the requests' path.
    collect() {
      if (!poolStats) return;
      const { total, idle, waiting } = poolStats();
      this.set({ state: 'total' }, total);
      this.set({ state: 'idle' }, idle);
      this.set({ state: 'waiting' }, waiting);
    },
  });
  return {
    registry,
    httpDuration: new Histogram({
      name: 'giftbox_http_request_duration_seconds',
      help: 'Time from a request to its answer, by method, route pattern ("unmatched" when none) and status.',
      labelNames: ['method', 'route', 'status'],
      buckets: HTTP_BUCKETS,
      registers,
    }),
    databaseErrors: new Counter({
      name: 'giftbox_db_errors_total',
      help: 'Database statements that failed: "unavailable" when the database could not be reached (answered 503), "query" otherwise.',
      labelNames: ['kind'],
      registers,
    }),
    plays: new Counter({
      name: 'giftbox_plays_total',
      help: 'Plays decided, by outcome (a repeat of a play by its idempotency key is not counted again).',
      labelNames: ['outcome'],
      registers,
    }),
    giftsOpened: new Counter({
      name: 'giftbox_gifts_opened_total',
      help: 'Gifts read (GET /api/gifts/:giftId answered 200).',
      registers,
    }),
    redeemsCompleted: new Counter({
      name: 'giftbox_redeems_completed_total',
      help: 'Redeem sessions completed: gifts redeemed and their vouchers issued (repeats not counted).',
      registers,
    }),
    conflicts: new Counter({
      name: 'giftbox_conflicts_total',
      help: 'Answers 409 Conflict, by route pattern.',
      labelNames: ['route'],
      registers,
    }),
    unavailable: new Counter({
      name: 'giftbox_unavailable_total',
      help: 'Answers 503 Service Unavailable (database unreachable, shutting down), by route pattern.',
      labelNames: ['route'],
      registers,
    }),
    watchPool(stats) {
      poolStats = stats;
    },
  };
}
