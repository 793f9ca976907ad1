/** What the figures were measured on: the date, the machine, Node, the commit. */
import { execFileSync } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { ROOT_DIR } from './paths';

function git(args: string[]): string | undefined {
  try {
    return execFileSync('git', args, { cwd: ROOT_DIR, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

/** `software`: what the run used besides Node, such as `Chromium 140.0`. */
export function describeMachine(software: string): string[] {
  const processors = cpus();
  const commit = git(['rev-parse', '--short', 'HEAD']) ?? 'unknown';
  const subject = git(['log', '-1', '--format=%s']) ?? '';
  const changed = (git(['status', '--porcelain']) ?? '').split('\n').filter(Boolean).length;
  return [
    `date:     ${new Date().toISOString()}`,
    `machine:  ${processors[0]?.model.trim() ?? 'unknown CPU'}, ${processors.length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB`,
    `software: Node ${process.version}, ${software}`,
    `commit:   ${commit} ${subject}${changed > 0 ? ` (+ ${changed} uncommitted changes in the work tree)` : ''}`,
  ];
}
