/**
 * The remote a package folder holds, for the tools that run on it (the scaffold, deploy): the
 * registry's entry whose folder it is, or the package's own `remote-spec.ts` (a remote the
 * registry does not name), loaded by Node as the tools run under tsx.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { REMOTES, type RemoteSpec } from 'shared/remotes';
import { OWN_SPEC_FILE } from './spec-origin';

export interface PackageRemote {
  name: string;
  spec: RemoteSpec;
}

const load = createRequire(__filename);

/** The spec in `packageDir`'s own spec file; undefined when it has none. */
export function ownSpecOf(packageDir: string): PackageRemote | undefined {
  const file = join(packageDir, OWN_SPEC_FILE);
  if (!existsSync(file)) return undefined;
  const { REMOTE_NAME: name, REMOTE_SPEC: spec } = load(file) as { REMOTE_NAME?: unknown; REMOTE_SPEC?: RemoteSpec };
  if (typeof name !== 'string' || typeof spec !== 'object') {
    throw new Error(`${file} must export REMOTE_NAME and REMOTE_SPEC`);
  }
  return { name, spec };
}

/** The remote `packageDir` holds: the registry's, else its own spec's; undefined for a package that is no remote. */
export function packageRemote(packageDir: string): PackageRemote | undefined {
  const folder = basename(packageDir);
  const registered = Object.entries(REMOTES).find(([, spec]) => spec.packageDir === folder);
  return registered ? { name: registered[0], spec: registered[1] } : ownSpecOf(packageDir);
}
