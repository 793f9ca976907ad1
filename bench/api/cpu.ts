/**
 * How busy the machine was during a section, and how much of that was not the bench: the CPU of
 * the bench process, its children (the servers), the PostgreSQL cluster's processes and their
 * descendants, against the whole machine's (/proc/stat). Linux only; elsewhere it reports nothing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';

/** USER_HZ: the unit of /proc's CPU times, 100 on every common Linux. */
const TICKS_PER_SECOND = 100;

interface ProcStat {
  pid: number;
  ppid: number;
  ticks: number;
  command: string;
}

function readProc(pid: string): ProcStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = text.lastIndexOf(')');
    const fields = text.slice(close + 2).split(' ');
    const ticks = [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index] ?? 0), 0);
    return {
      pid: Number(pid),
      ppid: Number(fields[1] ?? 0),
      ticks,
      command: readFileSync(`/proc/${pid}/cmdline`, 'utf8'),
    };
  } catch {
    return undefined;
  }
}

/** CPU seconds a process has used so far (0 when it is gone). */
export function processCpuSeconds(pid: number): number {
  return (readProc(String(pid))?.ticks ?? 0) / TICKS_PER_SECOND;
}

/** The PostgreSQL backends connected to `database` (their title: `postgres: user database …`). */
function backends(database: string): ProcStat[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(readProc)
    .filter(
      (stat): stat is ProcStat =>
        stat !== undefined && stat.command.startsWith('postgres: ') && stat.command.split(' ')[2] === database,
    );
}

/** CPU seconds used so far by the backends connected to `database`. */
export function backendCpuSeconds(database: string): number {
  return backends(database).reduce((sum, stat) => sum + stat.ticks, 0) / TICKS_PER_SECOND;
}

/** How many connections `database` has (one backend process each). */
export function backendCount(database: string): number {
  return backends(database).length;
}

function machineBusyTicks(): number {
  const [cpuLine = ''] = readFileSync('/proc/stat', 'utf8').split('\n');
  const values = cpuLine.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal …: busy = all but idle and iowait.
  return values.slice(0, 8).reduce((sum, value, index) => (index === 3 || index === 4 ? sum : sum + value), 0);
}

/** Ticks of the bench's own processes: this one, its descendants, and processes matching `alsoRoots`. */
function ourTicks(alsoRoots: (command: string) => boolean): number {
  const all = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(readProc)
    .filter((stat): stat is ProcStat => stat !== undefined);
  const children = new Map<number, ProcStat[]>();
  for (const stat of all) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), stat]);
  const roots = all.filter((stat) => stat.pid === process.pid || alsoRoots(stat.command));
  let ticks = 0;
  const seen = new Set<number>();
  const visit = (stat: ProcStat) => {
    if (seen.has(stat.pid)) return;
    seen.add(stat.pid);
    ticks += stat.ticks;
    for (const child of children.get(stat.pid) ?? []) visit(child);
  };
  roots.forEach(visit);
  return ticks;
}

export interface CpuUse {
  /** In cores (1.0 = one core busy the whole time). */
  machine: number;
  ours: number;
  others: number;
  cores: number;
}

/** Starts measuring; call the result to get the use since then. `postgresPort` finds the cluster's postmaster. */
export function measureCpu(postgresPort: string | undefined): (() => CpuUse) | undefined {
  const isOurPostgres = (command: string) =>
    postgresPort !== undefined && command.includes('postgres\0') && command.includes(`\0-p\0${postgresPort}`);
  let startMachine: number;
  let startOurs: number;
  try {
    startMachine = machineBusyTicks();
    startOurs = ourTicks(isOurPostgres);
  } catch {
    return undefined;
  }
  const started = performance.now();
  return () => {
    const seconds = (performance.now() - started) / 1000;
    const machine = (machineBusyTicks() - startMachine) / TICKS_PER_SECOND / seconds;
    const ours = Math.max(0, (ourTicks(isOurPostgres) - startOurs) / TICKS_PER_SECOND / seconds);
    return { machine, ours, others: Math.max(0, machine - ours), cores: cpus().length };
  };
}

export function describeCpu(use: CpuUse): string {
  return `CPU during this section: ${use.machine.toFixed(2)} of ${use.cores} cores busy, of which the bench and its servers ${use.ours.toFixed(2)}, other processes ${use.others.toFixed(2)}`;
}
