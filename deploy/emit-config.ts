/**
 * What a configuration renderer's command line does with what it rendered (`npm run
 * nginx-config`, `npm run prometheus-config`): prints it, or writes it to the file named, beside
 * which it is written first and renamed over it, so the server never reads half a configuration.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineCommand, refuse } from './command-line';

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

export interface ConfigCommandSpec {
  name: string;
  summary: string;
  usage: string;
  /** What to do with the file written. */
  next: string;
  /** The configuration, from the process's environment. */
  render: () => string;
  /** What is wrong with the environment, one problem a line, when `error` says; else undefined. */
  problemsOf: (error: unknown) => readonly string[] | undefined;
}

/** `npm run <name> [-- <output file>]`: renders a configuration, then prints or writes it. */
export function defineConfigCommand({ name, summary, usage, next, render, problemsOf }: ConfigCommandSpec) {
  return defineCommand({
    name,
    summary,
    usage,
    options: {},
    run: ({ positionals }, io) => {
      if (positionals.length > 1) refuse('give at most one output file');
      let config: string;
      try {
        config = render();
      } catch (error) {
        const problems = problemsOf(error);
        if (!problems) throw error;
        for (const problem of problems) io.err(`${name}: ${problem}`);
        return 1;
      }
      return emitConfig(name, config, positionals[0], next);
    },
  });
}
