/**
 * A remote's webpack `exposes`, taken from its registry entry (`shared/src/remotes.ts`) and
 * checked against its folder at build time, so a remote never builds with a surface the host
 * does not know: its folder must be the registered one, each registered file must exist, and
 * `src/exposed/` (one file per exposed module) must hold no module the registry leaves out.
 */
import { existsSync, readdirSync } from 'node:fs';
import { basename, join, normalize } from 'node:path';
import { remoteSpec, webpackExposes, type RemoteSpec } from 'shared/remotes';

export class ExposesError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExposesError';
  }
}

const EXPOSED_DIR = 'src/exposed';
/** Tests and test helpers may sit beside the exposed modules. */
const NOT_A_MODULE = /\.test\.[jt]sx?$|^test-/;

function differences(spec: RemoteSpec, declared: Record<string, string>): string[] {
  const registered = webpackExposes(spec);
  const names = [...new Set([...Object.keys(registered), ...Object.keys(declared)])];
  return names.flatMap((name) => {
    if (!(name in declared)) return [`${name} is in the registry but not in the webpack config's exposes`];
    if (!(name in registered)) return [`${name} is in the webpack config's exposes but not in the registry`];
    if (normalize(declared[name] as string) !== normalize(registered[name] as string)) {
      return [`${name} is ${declared[name]} in the webpack config's exposes but ${registered[name]} in the registry`];
    }
    return [];
  });
}

function missingFiles(spec: RemoteSpec, dir: string): string[] {
  return Object.entries(spec.exposes)
    .filter(([, { file }]) => !existsSync(join(dir, file)))
    .map(([module, { file }]) => `${module}: ${join(spec.packageDir, file)} does not exist`);
}

function unregisteredFiles(spec: RemoteSpec, dir: string): string[] {
  const exposedDir = join(dir, EXPOSED_DIR);
  if (!existsSync(exposedDir)) return [];
  const registered = new Set(Object.values(spec.exposes).map(({ file }) => normalize(join(dir, file))));
  return readdirSync(exposedDir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && !NOT_A_MODULE.test(entry.name))
    .map((entry) => join(exposedDir, entry.name))
    .filter((file) => !registered.has(file))
    .map(
      (file) =>
        `${join(spec.packageDir, EXPOSED_DIR, basename(file))} is in ${EXPOSED_DIR}/ but exposes no module of the registry: add it to the entry or move it out of ${EXPOSED_DIR}/`,
    );
}

/**
 * The `exposes` of remote `name`, built from package folder `dir`; `declared`, when a config
 * gives its own, must say the same. Throws an ExposesError listing every disagreement.
 */
export function remoteExposes(
  name: string,
  dir: string,
  declared?: Record<string, string>,
  lookup = remoteSpec,
): Record<string, string> {
  const spec = lookup(name);
  if (!spec) {
    throw new ExposesError(
      `"${name}" is not a remote in the registry (shared/src/remotes.ts): add its entry there (docs/adding-a-remote.md).`,
    );
  }
  const problems = [
    ...(basename(dir) === spec.packageDir
      ? []
      : [`the registry says the ${name} remote is in ${spec.packageDir}/, but it is built from ${basename(dir)}/`]),
    ...(declared ? differences(spec, declared) : []),
    ...missingFiles(spec, dir),
    ...unregisteredFiles(spec, dir),
  ];
  if (problems.length > 0) {
    const list = problems.map((problem) => `  - ${problem}`).join('\n');
    throw new ExposesError(
      `The ${name} remote's exposed modules disagree with the registry (shared/src/remotes.ts):\n${list}`,
    );
  }
  return webpackExposes(spec);
}
