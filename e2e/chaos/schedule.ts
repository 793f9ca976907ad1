/**
 * The faults of a chaos run and when they happen: one about every interval, drawn from a seeded
 * random source, so a run can be repeated exactly with its seed (printed at the start). Kinds are
 * drawn as from a bag, each once before any twice, so a ten-minute run meets every kind.
 */

export const FAULT_KINDS = [
  'postgres-restart-fast',
  'postgres-restart-immediate',
  'api-kill',
  'api-freeze',
  'remote-redeploy',
  'remote-rollback',
  'remote-down',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface PlannedFault {
  /** 1, 2, … in the order they happen. */
  number: number;
  kind: FaultKind;
  /** When it is due, in ms from the start of the load. */
  atMs: number;
  /** The API process (0-based) or the remote it hits; none for PostgreSQL. */
  target?: number | string;
}

export interface ScheduleOptions {
  seed: number;
  /** How long the load runs. */
  durationMs: number;
  /** The time between two faults, about (each is moved by up to a sixth of it either way). */
  intervalMs: number;
  /** When the first fault is due. */
  firstAtMs: number;
  /** The kinds to draw from (all by default). */
  kinds?: readonly FaultKind[];
  apiCount: number;
  remotes: readonly string[];
  /** The remote whose redeploys and rollbacks switch between two builds. */
  redeployedRemote: string;
}

/** mulberry32: a small, well-spread random source from a 32-bit seed, in [0, 1). */
export function randomSource(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

function targetOf(kind: FaultKind, random: () => number, options: ScheduleOptions): number | string | undefined {
  if (kind === 'api-kill' || kind === 'api-freeze') return Math.floor(random() * options.apiCount);
  if (kind === 'remote-down') return pick(random, options.remotes);
  if (kind === 'remote-redeploy' || kind === 'remote-rollback') return options.redeployedRemote;
  return undefined;
}

/** Faults due before the load's end, leaving a third of an interval after the last one's start. */
export function planFaults(options: ScheduleOptions): PlannedFault[] {
  const random = randomSource(options.seed);
  const kinds = options.kinds ?? FAULT_KINDS;
  if (kinds.length === 0) throw new Error('no fault kinds to draw from');
  const plan: PlannedFault[] = [];
  let bag: FaultKind[] = [];
  const jitter = options.intervalMs / 6;
  for (let slot = 0; ; slot++) {
    const atMs = Math.max(
      0,
      Math.round(options.firstAtMs + slot * options.intervalMs + (slot === 0 ? 0 : (random() * 2 - 1) * jitter)),
    );
    if (atMs > options.durationMs - options.intervalMs / 3) break;
    if (bag.length === 0) bag = [...kinds];
    const kind = bag.splice(Math.floor(random() * bag.length), 1)[0] as FaultKind;
    plan.push({ number: plan.length + 1, kind, atMs, target: targetOf(kind, random, options) });
  }
  return plan;
}

/** `api-freeze` on API process 2, `remote-down` of gifts… */
export function describeFault(fault: Pick<PlannedFault, 'kind' | 'target'>): string {
  if (fault.target === undefined) return fault.kind;
  return typeof fault.target === 'number' ? `${fault.kind} api-${fault.target + 1}` : `${fault.kind} ${fault.target}`;
}

export function describeSchedule(plan: readonly PlannedFault[], seed: number): string {
  const lines = plan.map(
    (fault) => `  #${fault.number} at ${(fault.atMs / 1000).toFixed(0)} s: ${describeFault(fault)}`,
  );
  return [`fault schedule (seed ${seed}, ${plan.length} faults):`, ...lines].join('\n');
}
