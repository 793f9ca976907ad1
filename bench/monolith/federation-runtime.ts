/**
 * Stands in for `@module-federation/enhanced/runtime` in the monolith (./webpack.config.ts
 * aliases it): the functions host/src/bootstrap.tsx imports, over webpack `import()`s of the
 * remotes' exposed files instead of remote entries. Browser code.
 */
import { EXPOSED_MODULES } from 'bench-monolith-exposed-modules';

function loaderOf(id: string): () => Promise<unknown> {
  const load = EXPOSED_MODULES[id];
  if (!load) throw new Error(`The monolith has no module ${id}: it is not in the registry of remotes`);
  return load;
}

/** The monolith has no remote entries to register. */
export function registerRemotes(): void {}

/** …and no federation runtime for plugins (the host's timeout plugin) to act on. */
export function registerPlugins(): void {}

export async function loadRemote<T>(id: string): Promise<T | null> {
  return (await loaderOf(id)()) as T;
}

/** Fetches the named modules' chunks; an entry-only prefetch (no real module) has nothing to fetch. */
export async function preloadRemote(options: { nameOrAlias: string; exposes?: string[] }[]): Promise<void> {
  await Promise.all(
    options.flatMap(({ nameOrAlias, exposes = [] }) =>
      exposes
        .map((module) => EXPOSED_MODULES[`${nameOrAlias}/${module}`])
        .filter((load) => load !== undefined)
        .map((load) => load()),
    ),
  );
}
