/**
 * A remote's webpack `exposes`, taken from its spec (its own `remote-spec.ts`, or its registry
 * entry in `shared/src/remotes.ts`: build/spec-origin.ts) and checked against its folder at build
 * time, so a remote never builds with a surface its published routes do not describe: its folder
 * must be the spec's, each file the spec names must exist, and `src/exposed/` (one file per
 * exposed module) must hold no module the spec leaves out.
 */
import { existsSync, readdirSync } from 'node:fs';
import { basename, join, normalize } from 'node:path';
import { remoteSpec, webpackExposes, type RemoteSpec } from 'shared/remotes';
import { noSpecMessage, specOrigin, type SpecOrigin } from './spec-origin';

export class ExposesError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExposesError';
  }
}

const EXPOSED_DIR = 'src/exposed';
/** Tests and test helpers may sit beside the exposed modules. */
const NOT_A_MODULE = /\.test\.[jt]sx?$|^test-/;

function differences({ spec, label }: SpecOrigin, declared: Record<string, string>): string[] {
  const registered = webpackExposes(spec);
  const names = [...new Set([...Object.keys(registered), ...Object.keys(declared)])];
  return names.flatMap((name) => {
    if (!(name in declared)) return [`${name} is in ${label} but not in the webpack config's exposes`];
    if (!(name in registered)) return [`${name} is in the webpack config's exposes but not in ${label}`];
    if (normalize(declared[name] as string) !== normalize(registered[name] as string)) {
      return [`${name} is ${declared[name]} in the webpack config's exposes but ${registered[name]} in ${label}`];
    }
    return [];
  });
}

function missingFiles(spec: RemoteSpec, dir: string): string[] {
  return Object.entries(spec.exposes)
    .filter(([, { file }]) => !existsSync(join(dir, file)))
    .map(([module, { file }]) => `${module}: ${join(spec.packageDir, file)} does not exist`);
}

function unregisteredFiles({ spec, label }: SpecOrigin, dir: string): string[] {
  const exposedDir = join(dir, EXPOSED_DIR);
  if (!existsSync(exposedDir)) return [];
  const registered = new Set(Object.values(spec.exposes).map(({ file }) => normalize(join(dir, file))));
  return readdirSync(exposedDir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && !NOT_A_MODULE.test(entry.name))
    .map((entry) => join(exposedDir, entry.name))
    .filter((file) => !registered.has(file))
    .map(
      (file) =>
        `${join(spec.packageDir, EXPOSED_DIR, basename(file))} is in ${EXPOSED_DIR}/ but exposes no module of ${label}: add it there or move it out of ${EXPOSED_DIR}/`,
    );
}

/**
 * The `exposes` of remote `name`, built from package folder `dir`, by the spec its config gives
 * (`given`) or the registry's; `declared`, when a config gives its own exposes, must say the
 * same. Throws an ExposesError listing every disagreement.
 */
export function remoteExposes(
  name: string,
  dir: string,
  {
    declared,
    given,
    lookup = remoteSpec,
  }: { declared?: Record<string, string>; given?: RemoteSpec; lookup?: typeof remoteSpec } = {},
): Record<string, string> {
  let origin: SpecOrigin | undefined;
  try {
    origin = specOrigin(name, given, lookup);
  } catch (error) {
    throw new ExposesError((error as Error).message);
  }
  if (!origin) throw new ExposesError(noSpecMessage(name));
  const { spec, label, file } = origin;
  const problems = [
    ...(basename(dir) === spec.packageDir
      ? []
      : [`${label} says the ${name} remote is in ${spec.packageDir}/, but it is built from ${basename(dir)}/`]),
    ...(declared ? differences(origin, declared) : []),
    ...missingFiles(spec, dir),
    ...unregisteredFiles(origin, dir),
  ];
  if (problems.length > 0) {
    const list = problems.map((problem) => `  - ${problem}`).join('\n');
    throw new ExposesError(`The ${name} remote's exposed modules disagree with ${label} (${file}):\n${list}`);
  }
  return webpackExposes(spec);
}
