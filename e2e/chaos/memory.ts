/**
 * The memory of the run's processes, from Linux's /proc: each one's resident set (VmRSS of
 * /proc/<pid>/status), summed over the processes below it (nginx's workers, PostgreSQL's
 * backends, Chromium's renderers). A server under testbed's process guard is counted without the
 * guard: the processes below it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';

interface ProcEntry {
  pid: number;
  parent: number;
  command: string;
}

function processes(): ProcEntry[] {
  if (!existsSync('/proc')) return [];
  const found: ProcEntry[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // `pid (comm) state ppid …`; comm may hold spaces and parentheses.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      found.push({ pid: Number(entry), parent, command });
    } catch {
      // The process has ended meanwhile.
    }
  }
  return found;
}

function below(all: readonly ProcEntry[], pid: number): number[] {
  const found: number[] = [];
  const visit = (parent: number) => {
    for (const child of all.filter((entry) => entry.parent === parent)) {
      found.push(child.pid);
      visit(child.pid);
    }
  };
  visit(pid);
  return found;
}

/** VmRSS in bytes; 0 for a process that ended (or a zombie). */
export function residentBytes(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** What to measure: a process with those below it, or only those below it (a guarded server). */
export type Measured =
  | { name: string; pid: number; scope: 'tree' | 'children' }
  | { name: string; postgresPort: number }
  | { name: string; chromiumUnder: number }
  | { name: string; self: true };

function pidsOf(measured: Measured, all: readonly ProcEntry[]): number[] {
  if ('self' in measured) return [process.pid];
  if ('postgresPort' in measured) {
    const postmaster = all.find(
      (entry) => /(^|\/)postgres /.test(entry.command) && entry.command.includes(`-p ${measured.postgresPort}`),
    );
    return postmaster ? [postmaster.pid, ...below(all, postmaster.pid)] : [];
  }
  if ('chromiumUnder' in measured) {
    const roots = below(all, measured.chromiumUnder).filter((pid) => {
      const entry = all.find((candidate) => candidate.pid === pid);
      const parent = all.find((candidate) => candidate.pid === entry?.parent);
      return /chrom/.test(entry?.command ?? '') && !/chrom/.test(parent?.command ?? '');
    });
    return roots.flatMap((pid) => [pid, ...below(all, pid)]);
  }
  const children = below(all, measured.pid);
  return measured.scope === 'tree' ? [measured.pid, ...children] : children;
}

/** Each measured group's resident bytes now (the harness itself: this process). */
export function measureMemory(groups: readonly Measured[]): Map<string, number> {
  const all = processes();
  return new Map(
    groups.map((group) => [
      group.name,
      'self' in group
        ? process.memoryUsage().rss
        : pidsOf(group, all).reduce((sum, pid) => sum + residentBytes(pid), 0),
    ]),
  );
}
