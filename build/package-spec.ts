/**
 * A package's own spec, `remote-spec.ts` (a remote the registry does not name), for the tools that
 * run on it (the scaffold, deploy): loaded by Node, as the tools run under tsx.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { RemoteSpec } from 'shared/remotes';
import { OWN_SPEC_FILE } from './spec-origin';

export interface OwnSpec {
  name: string;
  spec: RemoteSpec;
}

const load = createRequire(__filename);

/** The spec in `packageDir`'s own spec file; undefined when it has none. */
export function ownSpecOf(packageDir: string): OwnSpec | undefined {
  const file = join(packageDir, OWN_SPEC_FILE);
  if (!existsSync(file)) return undefined;
  const { REMOTE_NAME: name, REMOTE_SPEC: spec } = load(file) as { REMOTE_NAME?: unknown; REMOTE_SPEC?: RemoteSpec };
  if (typeof name !== 'string' || typeof spec !== 'object') {
    throw new Error(`${file} must export REMOTE_NAME and REMOTE_SPEC`);
  }
  return { name, spec };
}
