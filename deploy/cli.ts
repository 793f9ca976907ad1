/**
 * The deploy tools' one entry: `tsx deploy/cli.ts <command> …`, which each package's scripts run
 * (`npm run deploy -w <remote> -- <target folder> …`). npm runs a script in the package's folder
 * and keeps the caller's folder in INIT_CWD, so a relative path means what it meant where the
 * command was typed.
 */
import { canaryCommand } from './canary';
import { CONSOLE, refusalText, type Command, type CommandOutput } from './command-line';
import { deployCommand, stageCommand } from './deploy-command';
import { gateCommand } from './gate';
import { releaseCommand } from './release';
import { rollbackCommand } from './rollback';
import { runUnlessStale } from './stale-dist';

type Io = Parameters<typeof releaseCommand.main>[1] & Parameters<typeof gateCommand.main>[1];

interface Entry {
  command: Command<Io>;
  /** Publishes the package's dist/ unless told otherwise: refused while it is stale. */
  publishesDist?: boolean;
  /** SIGINT and SIGTERM stop it where it is (the lock released) instead of ending the process. */
  stoppable?: boolean;
}

const COMMANDS: Record<string, Entry> = {
  deploy: { command: deployCommand, publishesDist: true },
  stage: { command: stageCommand, publishesDist: true },
  rollback: { command: rollbackCommand },
  canary: { command: canaryCommand },
  gate: { command: gateCommand, stoppable: true },
  release: { command: releaseCommand, publishesDist: true, stoppable: true },
};

const USAGE = `Usage: tsx deploy/cli.ts <command> [<options>]   (npm run <command> -w <package> -- …)

Commands:
${Object.entries(COMMANDS)
  .map(([name, { command }]) => `  ${name.padEnd(10)}${command.summary}`)
  .join('\n')}
  <command> --help shows a command's options.`;

function stopSignal(name: string, output: CommandOutput): AbortSignal {
  const stop = new AbortController();
  // process.on, not once: npm relays the terminal's Ctrl-C, and that copy must not end the process.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stop.signal.aborted) return;
      output.err(`${name}: ${signal}: stopping where it is`);
      stop.abort();
    });
  }
  return stop.signal;
}

/** Where a command runs: the folder it was typed in, and the package's folder npm runs it in. */
interface Place {
  cwd: string;
  packageDir: string;
}

const PROCESS_PLACE = (): Place => ({ cwd: process.env.INIT_CWD || process.cwd(), packageDir: process.cwd() });

/** Runs the command `argv` names; resolves to the exit status. */
export async function main(
  argv: readonly string[],
  output: CommandOutput = CONSOLE,
  place: Place = PROCESS_PLACE(),
): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '-h' || name === '--help') {
    output.out(USAGE);
    return 0;
  }
  const entry = name === undefined ? undefined : COMMANDS[name];
  if (!entry) {
    output.err(
      refusalText('deploy tools', name === undefined ? 'the command is missing' : `unknown command "${name}"`, USAGE),
    );
    return 1;
  }
  const io: Io = {
    ...place,
    env: process.env,
    signal: entry.stoppable ? stopSignal(entry.command.name, output) : undefined,
    ...output,
  };
  const run = (args: readonly string[]) => entry.command.main(args, io);
  return entry.publishesDist ? runUnlessStale(rest, io, entry.command.name, run) : run(rest);
}

if (require.main === module) {
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
