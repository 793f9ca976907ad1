/** pino's JSON lines on stdout, in the API's shape, so one reader parses every server alike. */
import pino, { type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from './env';
import { batchedDestination } from './log-destination';

export type { Logger };

let stdout: DestinationStream | undefined;

/** The process's one stdout destination: every logger of the process writes its lines through it. */
export function stdoutDestination(): DestinationStream {
  stdout ??= batchedDestination(pino.destination({ dest: 1, sync: false }));
  return stdout;
}

export function createLogger(name: string, level: LogLevel = 'info', destination?: DestinationStream): Logger {
  return pino({ name, level }, destination ?? stdoutDestination());
}

let current: Logger | undefined;

export function serverLog(): Logger {
  current ??= pino({ level: 'info' }, stdoutDestination());
  return current;
}

export function setServerLog(logger: Logger): Logger {
  current = logger;
  return logger;
}
