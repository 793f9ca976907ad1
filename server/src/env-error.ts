export class EnvError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EnvError';
  }
}

export type Env = Record<string, string | undefined>;

export type Reader<T> = (raw: string | undefined, name: string) => T;
