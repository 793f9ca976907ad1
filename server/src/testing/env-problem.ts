/**
 * Test helper: the message of the EnvError `read` throws, for tests of what a server says about
 * its environment. A read that throws nothing, or throws anything else, fails the test.
 */
import { EnvError } from '../env-error';

export function envProblemOf(read: () => unknown): string {
  try {
    read();
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    return error.message;
  }
  throw new Error('expected an EnvError');
}
