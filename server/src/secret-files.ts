/**
 * A secret variable (VISITOR_COOKIE_SECRETS, DATABASE_URL, …) may instead name a file holding its
 * value in `<NAME>_FILE`, as a supervisor hands out credentials (systemd's LoadCredential=, a
 * container's mounted secret): the value then never sits in the environment, where
 * `/proc/<pid>/environ`, `systemctl show` and crash reports can see it. The file is read once, at
 * start; one trailing newline (what `echo` and editors add) is dropped. Messages name the
 * variables and the path, never what the file holds.
 */
import { readFileSync } from 'node:fs';
import { type Env, EnvError, type Reader } from './env-error';

/** The variable naming a secret's file: `VISITOR_COOKIE_SECRETS_FILE`. */
export function secretFileVariable(name: string): string {
  return `${name}_FILE`;
}

/** The text of `path`, or an EnvError naming `variable` and the path. */
function readSecretFile(variable: string, path: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new EnvError(`${variable} names a file that cannot be read: ${path} (${code})`);
  }
  const value = text.replace(/\r?\n$/, '');
  if (value === '') throw new EnvError(`${variable} names an empty file: ${path}`);
  return value;
}

/**
 * The secret `name` as given: its variable, or the file its `_FILE` variable names; undefined
 * when neither is set (empty counts as unset). Both set is refused: which one wins would be a
 * guess.
 */
export function secretValue(env: Env, name: string): string | undefined {
  const fileVariable = secretFileVariable(name);
  const path = env[fileVariable] || undefined;
  const direct = env[name] || undefined;
  if (path === undefined) return direct;
  if (direct !== undefined) throw new EnvError(`${name} and ${fileVariable} are both set: set one of them`);
  return readSecretFile(fileVariable, path);
}

const SECRET_READERS = new WeakSet<Reader<unknown>>();

/** `read`, for a variable that may also be given as a file (`<NAME>_FILE`) in `envSchema`. */
export function fromSecretFile<T>(read: Reader<T>): Reader<T> {
  const secret: Reader<T> = (raw, name) => read(raw, name);
  SECRET_READERS.add(secret);
  return secret;
}

/** Whether `envSchema` also reads this reader's variable from `<NAME>_FILE`. */
export function readsSecretFile(read: Reader<unknown>): boolean {
  return SECRET_READERS.has(read);
}
