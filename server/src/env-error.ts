/** What every reader of the environment shares: the environment, a variable's reader and its error. */

export class EnvError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EnvError';
  }
}

export type Env = Record<string, string | undefined>;

/** One variable's value from its text (undefined when unset or empty); a bad value throws an EnvError naming `name`. */
export type Reader<T> = (raw: string | undefined, name: string) => T;
