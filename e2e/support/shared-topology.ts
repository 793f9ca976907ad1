/**
 * The progressive-delivery files' production topologies (topology.ts), one per worker and shape
 * (how many API processes and host's servers): nginx, PostgreSQL and the API processes start once
 * and serve file after file. A file takes one in its beforeAll with `sharedTopology`, which first
 * makes it as it started (`Topology.renew`: the starting builds published afresh, the host's
 * servers started again with the file's settings), so whatever the previous file deployed,
 * staged, revoked or restarted is undone, even by a file that failed half-way. The worker stops
 * them when it ends (fixtures.ts).
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from '@playwright/test';
import { LOG_DIR, ROOT_DIR, TMP_DIR } from './test-env';
import { startTopology, type Topology, type TopologySettings } from './topology';

export interface SharedTopologyOptions extends TopologySettings {
  /** How many API processes nginx balances over (2 by default). */
  apiCount?: number;
  /** How many host's servers nginx balances pages over (1 by default). */
  hostCount?: number;
}

/** By shape, each in a folder of its own: `startTopology` empties its default one. */
const shared = new Map<string, Topology>();

/** The worker's topology in the shape `options` ask for, as it started, with their settings. */
export async function sharedTopology(options: SharedTopologyOptions = {}): Promise<Topology> {
  const { apiCount = 2, hostCount = 1, ...settings } = options;
  const shape = `apis-${apiCount}-hosts-${hostCount}`;
  const began = Date.now();
  const kept = shared.get(shape);
  if (kept) {
    const running = new Set(kept.apis.map((api) => api.pid));
    await kept.renew(settings);
    const restarted = kept.apis.filter((api) => !running.has(api.pid)).length;
    logTaken(`renewed ${shape}, ${restarted} API processes started again`, began);
    return kept;
  }
  // Named by when it started: a worker started again after a failed test keeps that test's logs.
  const dir = join(TMP_DIR, `topology-${shape}-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  const topology = await startTopology({ apiCount, hostCount, dir, temporaryDatabase: true, ...settings });
  shared.set(shape, topology);
  logTaken(`started ${shape}`, began);
  return topology;
}

/** A line of the worker's `logs/topology.log`: what the file asking got, and how long it took. */
function logTaken(what: string, began: number): void {
  mkdirSync(LOG_DIR, { recursive: true });
  const file = relative(ROOT_DIR, test.info().file);
  appendFileSync(
    join(LOG_DIR, 'topology.log'),
    `${new Date().toISOString()} ${file}: ${what} in ${Date.now() - began} ms\n`,
  );
}

export async function stopSharedTopologies(): Promise<void> {
  const stopping = [...shared.values()];
  shared.clear();
  await Promise.all(stopping.map((topology) => topology.stop()));
}
