/**
 * The one command-line layer of the deploy tools, the benches and the scripts: a command is its
 * help text, its options (node's `parseArgs`) and a function of what they gave; `-h`/`--help`,
 * refusals and their wording are the same for every command.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

const HELP = { help: { type: 'boolean', short: 'h' } } as const;

type Config<O extends Options> = { args: string[]; options: O & typeof HELP; allowPositionals: true; strict: true };

/** What a command line gave: its options' values and its positionals. */
export type CommandLine<O extends Options> = ReturnType<typeof parseArgs<Config<O>>>;

/** Where a command writes. */
export interface CommandOutput {
  out: (line: string) => void;
  err: (line: string) => void;
}

/** A command line the command refuses: said with the command's help, exit status 1 unless the command says otherwise. */
export class UsageError extends Error {}

/** Throws the refusal of a command line: `problem` is what is wrong with it. */
export function refuse(problem: string): never {
  throw new UsageError(problem);
}

/** How every refused command line reads: the command, what is wrong, then its help. */
export function refusalText(name: string, problem: string, usage: string): string {
  return `${name}: ${problem}\n\n${usage}`;
}

/**
 * What node's `parseArgs` refused, naming the option as it was typed: "unknown option --force",
 * "--keep-builds needs a value", or parseArgs's own message.
 */
export function describeArgsError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown }).code;
  const option = /'(-[^' ,<]+)/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) return `unknown option ${option}`;
  // "argument missing" (an option last), "ambiguous" (followed by another option).
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option && /missing|ambiguous/.test(message))
    return `${option} needs a value`;
  return message;
}

/**
 * Reads `argv` as `options` (and -h/--help) say; what it refuses throws UsageError. For a reader
 * of options tested apart from its command (the benches').
 */
export function readCommandLine<const O extends Options>(options: O, argv: readonly string[]): CommandLine<O> {
  try {
    return parseArgs({ args: [...argv], options: { ...options, ...HELP }, allowPositionals: true, strict: true });
  } catch (error) {
    return refuse(describeArgsError(error));
  }
}

export interface CommandSpec<O extends Options, IO extends CommandOutput> {
  name: string;
  /** One line for the list of commands. */
  summary: string;
  usage: string;
  options: O;
  /** The exit status of a refused command line (default 1). */
  refusedStatus?: number;
  /** Resolves to the exit status; throws UsageError (`refuse`) for a command line it refuses. */
  run: (line: CommandLine<O>, io: IO) => number | Promise<number>;
}

export interface Command<IO extends CommandOutput> {
  name: string;
  summary: string;
  usage: string;
  /** Parses `argv`, prints the help or the refusal, runs the command; resolves to the exit status. */
  main: (argv: readonly string[], io: IO) => Promise<number>;
}

/** A command whose command line is parsed, helped and refused as every other's. */
export function defineCommand<const O extends Options, IO extends CommandOutput>(
  spec: CommandSpec<O, IO>,
): Command<IO> {
  const { name, summary, usage } = spec;
  const refused = (io: IO, problem: string) => {
    io.err(refusalText(name, problem, usage));
    return spec.refusedStatus ?? 1;
  };
  const main = async (argv: readonly string[], io: IO): Promise<number> => {
    try {
      const line = readCommandLine(spec.options, argv);
      if ((line.values as { help?: boolean }).help) {
        io.out(usage);
        return 0;
      }
      return await spec.run(line, io);
    } catch (error) {
      if (error instanceof UsageError) return refused(io, error.message);
      throw error;
    }
  };
  return { name, summary, usage, main };
}

/** Runs a command as a process's main: its exit status becomes the process's. */
export function runMain<IO extends CommandOutput>(command: Command<IO>, io: IO, argv = process.argv.slice(2)): void {
  void command.main(argv, io).then((code) => {
    process.exitCode = code;
  });
}

/** Output to the process's stdout and stderr. */
export const CONSOLE: CommandOutput = {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
};

/** 0 once `work` is done; when it fails, says so as `<name> failed: <why>` and gives 1. */
export function exitStatusOf(name: string, work: Promise<unknown>, io: CommandOutput = CONSOLE): Promise<number> {
  return work.then(
    () => 0,
    (error: unknown) => {
      io.err(`${name} failed: ${error instanceof Error ? error.message : String(error)}`);
      return 1;
    },
  );
}

/**
 * `work`'s exit status; what it throws, but a refused command line, is said as `<name>: <why>`
 * with status 1.
 */
export async function statusOrFailure(name: string, io: CommandOutput, work: () => Promise<number>): Promise<number> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof UsageError) throw error;
    io.err(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
