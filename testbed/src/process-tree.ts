/** The processes below a process, from Linux's /proc (none elsewhere), for stopping a whole tree. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** Every process below `pid`, parents before their children. */
export function descendants(pid: number): number[] {
  if (!existsSync('/proc')) return [];
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // `pid (comm) state ppid …`; comm may hold spaces and parentheses.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // The process has ended meanwhile.
    }
  }
  const found: number[] = [];
  const visit = (parent: number) => {
    for (const child of children.get(parent) ?? []) {
      found.push(child);
      visit(child);
    }
  };
  visit(pid);
  return found;
}

/** True while the process runs: a zombie (ended, not reaped yet; a container's init may never reap it) does not. */
export function isRunning(pid: number): boolean {
  if (existsSync('/proc')) {
    try {
      // The state follows the command's closing parenthesis.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
