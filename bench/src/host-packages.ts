/**
 * What the host's first scripts hold, by package, from the host build's webpack stats: each script's
 * served gzip bytes shared among its packages in proportion to their module sizes, an estimate
 * good enough to say which packages weigh.
 */

interface StatsModule {
  name?: string;
  size?: number;
  chunks?: (string | number)[];
  modules?: StatsModule[];
}

export interface WebpackStats {
  chunks?: { id: string | number; files?: string[] }[];
  modules?: StatsModule[];
}

export interface ServedScript {
  name: string;
  bytes: number;
}

export interface PackageShare {
  name: string;
  bytes: number;
}

export function fileStem(file: string): string {
  const base = file.replace(/^.*\//, '').replace(/\.js$/, '');
  return base.replace(/\.[0-9a-f]{8,}$/, '');
}

/** An npm package (the innermost), else the workspace's folder under src. */
export function packageOf(moduleName: string, workspace: string): string {
  // Module federation's wrappers name the file they provide or fall back to.
  const named = /\(fallback: ([^)]+)\)/.exec(moduleName)?.[1] ?? / = (\S+)$/.exec(moduleName)?.[1] ?? moduleName;
  const path = named.slice(named.lastIndexOf('!') + 1).replace(/ \+ \d+ modules?$/, '');
  if (path.startsWith('webpack/runtime/')) return 'webpack runtime';
  const packages = [...path.matchAll(/node_modules\/(@[^/]+\/[^/]+|[^/.][^/]*)/g)];
  const last = packages[packages.length - 1]?.[1];
  if (last) return last;
  const segments = path.split('/').filter((segment) => segment !== '.' && segment !== '..');
  const [first, ...rest] = segments[0] === 'src' ? [workspace, ...segments] : segments;
  if (rest[0] !== 'src') return [first, ...rest.slice(0, 1)].join('/');
  const under = rest.slice(1);
  const depth = under[0] === 'browser' && under.length > 2 ? 2 : 1;
  return [first, 'src', ...under.slice(0, depth)].join('/');
}

function leaves(module: StatsModule): StatsModule[] {
  return module.modules && module.modules.length > 0 ? module.modules.flatMap(leaves) : [module];
}

export function largestShares(shares: readonly PackageShare[], count: number): PackageShare[] {
  if (shares.length <= count + 1) return [...shares];
  const rest = shares.slice(count);
  return [
    ...shares.slice(0, count),
    { name: `${rest.length} other packages`, bytes: rest.reduce((sum, share) => sum + share.bytes, 0) },
  ];
}

export function packagesOf(stats: WebpackStats, scripts: readonly ServedScript[], workspace: string): PackageShare[] {
  const totals = new Map<string, number>();
  const add = (name: string, bytes: number) => totals.set(name, (totals.get(name) ?? 0) + bytes);
  for (const script of scripts) {
    const stem = fileStem(script.name);
    const chunkIds = new Set(
      (stats.chunks ?? [])
        .filter((chunk) => (chunk.files ?? []).some((file) => file.endsWith('.js') && fileStem(file) === stem))
        .map((chunk) => String(chunk.id)),
    );
    const sizes = new Map<string, number>();
    for (const module of stats.modules ?? []) {
      if (!(module.chunks ?? []).some((id) => chunkIds.has(String(id)))) continue;
      for (const leaf of leaves(module)) {
        const name = packageOf(leaf.name ?? '', workspace);
        sizes.set(name, (sizes.get(name) ?? 0) + (leaf.size ?? 0));
      }
    }
    const total = [...sizes.values()].reduce((sum, size) => sum + size, 0);
    if (total === 0) {
      add('(not in the stats)', script.bytes);
      continue;
    }
    for (const [name, size] of sizes) add(name, (script.bytes * size) / total);
  }
  return [...totals]
    .map(([name, bytes]) => ({ name, bytes }))
    .sort((a, b) => b.bytes - a.bytes || a.name.localeCompare(b.name));
}
