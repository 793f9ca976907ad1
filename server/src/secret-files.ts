/**
 * A secret may come from a file named by `<NAME>_FILE` (systemd's LoadCredential=), so it never
 * sits in the environment; messages never show what the file holds.
 */
import { readFileSync } from 'node:fs';
import { type Env, EnvError, type Reader } from './env-error';

export function secretFileVariable(name: string): string {
  return `${name}_FILE`;
}

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

/** Both set is refused: which one wins would be a guess. */
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

export function readsSecretFile(read: Reader<unknown>): boolean {
  return SECRET_READERS.has(read);
}
