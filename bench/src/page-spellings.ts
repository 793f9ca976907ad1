/**
 * `npm run bench:page-spellings -w bench [-- --server <main.js>] [--path /privacy-policy]`: what
 * a client asking for one page in many spellings (`/Privacy-Policy`, `/privacy-policy//`,
 * `/%70rivacy-policy`…) costs the host's server. It starts the built host and remotes
 * (host-with-remotes.ts), asks for the page once, then sends 200 distinct spellings of its path,
 * one at a time, as a browser would (Accept: text/html, Accept-Encoding: gzip, deflate, br), and
 * prints the CPU time the host's process spent (user and system, from /proc) per request, with
 * the statuses it answered. `--server` runs another build of the host's server (an older one, to
 * compare).
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { resolve } from 'node:path';
import { CONSOLE, defineCommand, exitStatusOf, refuse, runMain, type CommandLine } from '../../deploy/command-line';
import { HOST_SERVER, startHostWithRemotes } from './host-with-remotes';

const SPELLINGS = 200;
/** Linux's clock ticks a second (USER_HZ), the unit of /proc/<pid>/stat's times. */
const TICKS_PER_SECOND = 100;

const USAGE = `Usage: npm run bench:page-spellings -w bench -- [--server <main.js>] [--path /page]

  --server <main.js>   the host's server build to run (default: the built one)
  --path /page         the page asked for (default /privacy-policy)
  -h, --help           this text`;

const OPTIONS = { server: { type: 'string' }, path: { type: 'string' } } as const;

interface Options {
  server: string;
  path: string;
}

function optionsOf({ values, positionals }: CommandLine<typeof OPTIONS>): Options {
  if (positionals.length > 0) refuse(`unexpected argument ${positionals[0]}`);
  const path = values.path ?? '/privacy-policy';
  if (!path.startsWith('/')) refuse(`--path takes a path such as /privacy-policy, got "${path}"`);
  return { server: values.server ? resolve(values.server) : HOST_SERVER, path };
}

/**
 * `count` distinct spellings of `path` that the router matches to its route: letter case, a
 * letter percent-encoded, repeated and trailing slashes. Never the path itself.
 */
export function spellingsOf(path: string, count: number): string[] {
  const letters = [...path.slice(1)];
  const spellings = new Set<string>();
  for (let n = 1; spellings.size < count; n += 1) {
    const cased = letters.map((letter, i) => ((n >> i) & 1 ? letter.toUpperCase() : letter)).join('');
    const encoded = n % 3 === 1 ? `%${cased.charCodeAt(0).toString(16)}${cased.slice(1)}` : cased;
    const spelling = `/${encoded}${'/'.repeat(n % 4)}`;
    if (spelling !== path) spellings.add(spelling);
  }
  return [...spellings];
}

/** The process's user and system CPU time so far, in milliseconds. */
function cpuMs(pid: number): number {
  // The fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

function get(agent: Agent, origin: string, path: string): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const headers = { accept: 'text/html', 'accept-encoding': 'gzip, deflate, br' };
    const req = request(`${origin}${path}`, { agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolvePromise(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

async function main(options: Options): Promise<void> {
  const host = await startHostWithRemotes(options.server, options.path);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    // The page itself first, so that what follows is what the spellings add.
    await get(agent, host.origin, options.path);
    const statuses = new Map<number, number>();
    const before = cpuMs(host.hostPid);
    for (const spelling of spellingsOf(options.path, SPELLINGS)) {
      const status = await get(agent, host.origin, spelling);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    const spent = cpuMs(host.hostPid) - before;
    console.log(`host server: ${options.server}`);
    console.log(
      `${SPELLINGS} spellings of ${options.path}: ${spent.toFixed(0)} ms of the host's CPU, ` +
        `${(spent / SPELLINGS).toFixed(2)} ms a request; ` +
        [...statuses].map(([status, count]) => `${count} × ${status}`).join(', '),
    );
  } finally {
    agent.destroy();
    await host.stop();
  }
}

if (require.main === module) {
  runMain(
    defineCommand({
      name: 'bench:page-spellings',
      summary: "what one page asked for in many spellings costs the host's server",
      usage: USAGE,
      options: OPTIONS,
      run: (line) => exitStatusOf('bench:page-spellings', main(optionsOf(line))),
    }),
    CONSOLE,
  );
}
