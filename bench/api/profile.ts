/**
 * `--cpu-prof DIR`: where a server spent its CPU during the saturation section, from the
 * `.cpuprofile` Node writes at its exit: self time by place, the idle time left out.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface Share {
  place: string;
  /** Of the busy time. */
  share: number;
}

/** A package (`fastify`, `@fastify/cookie`), a source folder of ours (`api/src/http`), Node's internals, or V8's. */
export function placeOf({ functionName, url }: ProfileNode['callFrame']): string {
  // The innermost node_modules: a package's own copy of another is that other package.
  const pkg = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1] ?? url;
  // node:internal's modules by their folder (node:internal/streams), the others by name.
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/').slice(0, 2).join('/')}`;
  const ours = /\/((?:api|server|shared|bench)\/(?:src\/)?[^/]+)\/[^/]+$/.exec(url);
  if (ours) return ours[1] ?? url;
  if (url === '') return functionName === '' ? '(anonymous native)' : `(${functionName.replace(/^\((.*)\)$/, '$1')})`;
  return url.split('/').slice(-2).join('/');
}

/** Self time by place, largest first, as shares of the time not idle. */
export function selfTimeByPlace(profile: CpuProfile): { busyMs: number; shares: Share[] } {
  const places = new Map(profile.nodes.map((node) => [node.id, placeOf(node.callFrame)]));
  const totals = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    const place = places.get(id) ?? '(unknown)';
    totals.set(place, (totals.get(place) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  totals.delete('(idle)');
  const busy = [...totals.values()].reduce((sum, time) => sum + time, 0);
  const shares = [...totals]
    .map(([place, time]) => ({ place, share: busy > 0 ? time / busy : 0 }))
    .sort((a, b) => b.share - a.share);
  return { busyMs: busy / 1000, shares };
}

/**
 * The main thread's profile of process `pid` in `dir`: Node names each thread's
 * `CPU.{date}.{time}.{pid}.{thread}.{seq}.cpuprofile`, the main thread 0 (a logger's or a
 * database's worker threads write theirs beside it).
 */
export function mainThreadProfile(dir: string, pid: number): string {
  const file = readdirSync(dir).find((name) => {
    const [, owner, thread] = /^CPU\.\d+\.\d+\.(\d+)\.(\d+)\.\d+\.cpuprofile$/.exec(name) ?? [];
    return owner === String(pid) && thread === '0';
  });
  if (!file) throw new Error(`no CPU profile of process ${pid}'s main thread in ${dir}`);
  return join(dir, file);
}

/** One line per place above `least` of the busy time, the rest summed. */
export function describeProfile(label: string, file: string, least = 0.01): string[] {
  const { busyMs, shares } = selfTimeByPlace(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile);
  const shown = shares.filter((share) => share.share >= least);
  const rest = shares.slice(shown.length).reduce((sum, share) => sum + share.share, 0);
  const percent = (share: number) => `${(share * 100).toFixed(1).padStart(5)} %`;
  return [
    `${label}: ${(busyMs / 1000).toFixed(1)} CPU-s busy (${file})`,
    ...shown.map((share) => `  ${percent(share.share)}  ${share.place}`),
    `  ${percent(rest)}  ${shares.length - shown.length} other places`,
  ];
}
