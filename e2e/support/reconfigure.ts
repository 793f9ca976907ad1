/**
 * An operator's change of the topology's configuration (topology.ts): every API process, then
 * every host's server, stopped and started again with the new variables, one at a time, each
 * ready before the next one stops (docs/operations.md "Rolling restarts"); and what the servers
 * then say, in their logs and on their metrics listeners.
 */
import { readFileSync, statSync } from 'node:fs';
import { stopProcess } from 'testbed/process';
import type { Topology } from './topology';

/** Restarts every API process, then every host's server, in turn, with `env` added to each one's own. */
export async function restartInTurn(topology: Topology, env: Record<string, string>): Promise<void> {
  for (const index of topology.apis.keys()) {
    const api = topology.apis[index];
    if (api) await stopProcess(api);
    await topology.restartApi(index, env);
  }
  for (const index of topology.hosts.keys()) {
    const host = topology.hosts[index];
    if (host) await stopProcess(host);
    await topology.restartHost(index, env);
  }
}

/** Where each host's server's log ends now: `logMessagesSince` reads what comes after. */
export function hostLogMarks(topology: Topology): Map<string, number> {
  return new Map(
    topology.hosts.flatMap(({ logFile }) => (logFile ? [[logFile, statSync(logFile).size] as const] : [])),
  );
}

/** The `msg` of every JSON line written to the logs of `marks` after their mark. */
export function logMessagesSince(marks: ReadonlyMap<string, number>): string[] {
  return [...marks].flatMap(([file, offset]) =>
    readFileSync(file)
      .subarray(offset)
      .toString('utf8')
      .split('\n')
      .flatMap((line) => {
        try {
          const { msg } = JSON.parse(line) as { msg?: unknown };
          return typeof msg === 'string' ? [msg] : [];
        } catch {
          return [];
        }
      }),
  );
}

/** Every API process's metric lines (`name{labels} value`) that carry each of `labels`. */
export async function apiMetricLines(topology: Topology, labels: Record<string, string>): Promise<string[]> {
  const wanted = Object.entries(labels).map(([label, value]) => `${label}="${value}"`);
  const texts = await Promise.all(
    topology.apis.map(async ({ metrics }) => (await fetch(`http://${metrics}/metrics`)).text()),
  );
  return texts
    .flatMap((text) => text.split('\n'))
    .filter((line) => !line.startsWith('#') && wanted.every((part) => line.includes(part)));
}
