/**
 * The log of a server process of ours (the host's, a remote's): pino's JSON lines on stdout, one
 * object a line (`level`, `time`, `pid`, `hostname`, `name`, `msg`, errors under `err`), the shape
 * the API writes, so one reader (journald, a collector) parses every server alike.
 */
import pino, { type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from './env';
import { batchedDestination } from './log-destination';

export type { Logger };

let stdout: DestinationStream | undefined;

/** Stdout, asynchronous and batched as the API's (log-destination.ts): one for the process. */
function stdoutDestination(): DestinationStream {
  stdout ??= batchedDestination(pino.destination({ dest: 1, sync: false }));
  return stdout;
}

/** A logger whose lines carry `name` (the server: `host`, `remote-gifts`); tests give a stream. */
export function createLogger(name: string, level: LogLevel = 'info', destination?: DestinationStream): Logger {
  return pino({ name, level }, destination ?? stdoutDestination());
}

let current: Logger | undefined;

/** The process's logger: the one `setServerLog` was given, else one without a name, at `info`. */
export function serverLog(): Logger {
  current ??= pino({ level: 'info' }, stdoutDestination());
  return current;
}

/** Makes `logger` the process's (its server's main does, once its configuration is read). */
export function setServerLog(logger: Logger): Logger {
  current = logger;
  return logger;
}
