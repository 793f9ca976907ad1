/**
 * What a configuration renderer's command line does with what it rendered (`npm run
 * nginx-config`, `npm run prometheus-config`): prints it, or writes it to the file named, beside
 * which it is written first and renamed over it, so the server never reads half a configuration.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** Returns the exit code; `next` says what to do with the file written. */
export function emitConfig(name: string, config: string, output: string | undefined, next: string): number {
  if (!output) {
    process.stdout.write(config);
    return 0;
  }
  const target = resolve(process.env.INIT_CWD || process.cwd(), output);
  writeFileSync(`${target}.tmp`, config);
  renameSync(`${target}.tmp`, target);
  console.error(`${name}: wrote ${target}; ${next}`);
  return 0;
}
