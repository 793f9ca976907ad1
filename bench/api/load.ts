/**
 * Two ways of loading a server: `saturate` (autocannon, closed loop: the most requests a second)
 * and `paced` (open loop at a fixed rate, latency from when each request was due, so a stall
 * counts for every request it delayed). autocannon's `overallRate` sends bursts, not a rate, and
 * its coordinated-omission correction multiplies samples, so `paced` is our own.
 */
import autocannon from 'autocannon';
import { performance } from 'node:perf_hooks';
import { newAgent, send } from './http';

let aborted = false;
const instances = new Set<autocannon.Instance>();

export function abortLoads(): void {
  aborted = true;
  for (const instance of instances) instance.stop();
}

export interface Saturation {
  rps: number;
  completed: number;
  failures: number;
}

export async function saturate(url: string, options: { connections: number; seconds: number }): Promise<Saturation> {
  if (aborted) throw new Error('aborted');
  const instance = autocannon({ url, connections: options.connections, duration: options.seconds });
  instances.add(instance);
  try {
    const result = await instance;
    return {
      rps: result.requests.average,
      completed: result.requests.total,
      failures: result.non2xx + result.errors + result.timeouts,
    };
  } finally {
    instances.delete(instance);
  }
}

export interface PacedOptions {
  baseUrl: string;
  path: string;
  method?: 'GET' | 'POST';
  body?: unknown;
  rate: number;
  seconds: number;
  sockets: number;
}

export interface Paced {
  planned: number;
  latencies: number[];
  statuses: Map<number, number>;
  failed: number;
  achievedRate: number;
  /** At worst, in ms: a busy bench process. */
  maxLag: number;
}

export function paced(options: PacedOptions): Promise<Paced> {
  const agent = newAgent(options.sockets);
  const planned = Math.max(1, Math.round(options.rate * options.seconds));
  const interval = 1000 / options.rate;
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  let failed = 0;
  let fired = 0;
  let settled = 0;
  let maxLag = 0;
  const start = performance.now();

  return new Promise((resolve) => {
    let toFire = planned;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      agent.destroy();
      latencies.sort((a, b) => a - b);
      const elapsedSeconds = (performance.now() - start) / 1000;
      resolve({ planned, latencies, statuses, failed, achievedRate: latencies.length / elapsedSeconds, maxLag });
    };
    const fire = (due: number) => {
      maxLag = Math.max(maxLag, performance.now() - due);
      send(options.baseUrl, options.path, { method: options.method, body: options.body, agent, timeoutMs: 10_000 })
        .then(
          (reply) => {
            latencies.push(performance.now() - due);
            statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
          },
          () => {
            failed += 1;
          },
        )
        .finally(() => {
          settled += 1;
          if (settled === toFire) finish();
        });
    };
    const timer = setInterval(() => {
      if (aborted) toFire = fired;
      const due = Math.min(toFire, Math.floor((performance.now() - start) / interval) + 1);
      for (; fired < due; fired += 1) fire(start + fired * interval);
      if (fired >= toFire) {
        clearInterval(timer);
        if (settled === toFire) finish();
      }
    }, 1);
  });
}
