/** Sections 2 and 3: latency of GET gift at a fixed rate, alone and while plays are written. */
import { backendCount } from './cpu';
import { type Paced, type PacedOptions, paced } from './load';
import { median, percentile } from 'testbed/stats';
import { heading, ms, note, rotate, rps, statuses, table, verdict } from './report';
import { type Settings, type Target, TARGETS } from './target';

interface Run extends Paced {
  /** The database's connections before → after the run (pg's pool closes those idle for 10 s). */
  connections: string;
}

/** A paced run, counting the target's PostgreSQL connections before and after. */
async function run(target: Target, options: Omit<PacedOptions, 'baseUrl'>): Promise<Run> {
  const count = () => (target.database ? String(backendCount(target.database)) : '');
  const before = count();
  const result = await paced({ baseUrl: target.server.baseUrl, ...options });
  return { ...result, connections: target.database ? `${before}→${count()}` : '' };
}

const HEADER = ['round server', 'answers/s', 'p50', 'p99', 'max', 'statuses', 'db connections'];

function latencyRow(label: string, result: Run): string[] {
  return [
    label,
    rps(result.achievedRate),
    ms(percentile(result.latencies, 50) ?? Number.NaN),
    ms(percentile(result.latencies, 99) ?? Number.NaN),
    ms(result.latencies.at(-1) ?? Number.NaN),
    statuses(result.statuses, result.failed),
    result.connections,
  ];
}

function notes(results: Run[]): void {
  const lag = Math.max(...results.map((result) => result.maxLag));
  if (lag > 10)
    note(
      `(the pacer itself ran up to ${ms(lag)} late at times: the bench process was busy; that delay is in the figures)`,
    );
  const grew = results.some((result) => {
    const [before, after] = result.connections.split('→').map(Number);
    return before !== undefined && after !== undefined && after > before;
  });
  if (grew)
    note(
      "(db connections: the API's PostgreSQL connections before→after; pg's Pool closes those idle for 10 s, so a run may wait for new ones)",
    );
}

/** Per server, the p99 of each round: the median and the worst, against the target. */
class P99s {
  private readonly byLabel = new Map<string, number[]>();

  add(label: string, result: Paced): void {
    this.byLabel.set(label, [...(this.byLabel.get(label) ?? []), percentile(result.latencies, 99) ?? Number.NaN]);
  }

  summary(label: string, what: string): string {
    const values = this.byLabel.get(label) ?? [];
    const middle = median(values) ?? Number.NaN;
    return `${what} ${label}: median of the rounds' p99 ${ms(middle)}, worst ${ms(Math.max(...values))}   target p99 ≤ ${TARGETS.p99Ms} ms: ${verdict(middle <= TARGETS.p99Ms)}`;
  }
}

export async function fixedRate(targets: readonly Target[], settings: Settings): Promise<void> {
  heading(
    `2. Latency at a fixed ${settings.fixedRate} req/s, GET /api/gifts/:giftId: ${settings.fixedSeconds} s, ${settings.latencyRounds} interleaved rounds (each starting one server further), ` +
      'open loop (measured from when each request was due)',
  );
  const rows: string[][] = [];
  const p99s = new P99s();
  const all: Run[] = [];
  for (let round = 1; round <= settings.latencyRounds; round += 1) {
    for (const target of rotate(targets, round - 1)) {
      const result = await run(target, {
        path: target.giftPath,
        rate: settings.fixedRate,
        seconds: settings.fixedSeconds,
        sockets: 64,
      });
      all.push(result);
      rows.push(latencyRow(`${round} ${target.label}`, result));
      p99s.add(target.label, result);
    }
  }
  console.log(table(HEADER, rows));
  notes(all);
  for (const target of targets) note(p99s.summary(target.label, 'GET'));
}

export async function readsDuringWrites(apis: readonly Target[], settings: Settings): Promise<void> {
  heading(
    `3. Reads during writes: GET /api/gifts/:giftId at ${settings.fixedRate} req/s while POST /api/game/plays ({}) runs at ${settings.writeRate} req/s ` +
      `(win rate 0.3), ${settings.fixedSeconds} s, ${settings.latencyRounds} interleaved rounds (each starting one server further)`,
  );
  const rows: string[][] = [];
  const p99s = new P99s();
  const all: Run[] = [];
  for (let round = 1; round <= settings.latencyRounds; round += 1) {
    for (const api of rotate(apis, round - 1)) {
      const [reads, writes] = await Promise.all([
        run(api, { path: api.giftPath, rate: settings.fixedRate, seconds: settings.fixedSeconds, sockets: 64 }),
        run(api, {
          path: '/api/game/plays',
          method: 'POST',
          body: {},
          rate: settings.writeRate,
          seconds: settings.fixedSeconds,
          sockets: 16,
        }),
      ]);
      all.push(reads, writes);
      rows.push(
        latencyRow(`${round} ${api.label} reads`, reads),
        latencyRow(`${round} ${api.label} writes`, { ...writes, connections: '' }),
      );
      p99s.add(api.label, reads);
    }
  }
  console.log(table(HEADER, rows));
  notes(all);
  for (const api of apis) note(p99s.summary(api.label, 'GET during writes'));
}
