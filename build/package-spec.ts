/** A package's own `remote-spec.ts`, for the tools (the scaffold, deploy). */
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

export function ownSpecOf(packageDir: string): OwnSpec | undefined {
  const file = join(packageDir, OWN_SPEC_FILE);
  if (!existsSync(file)) return undefined;
  const { REMOTE_NAME: name, REMOTE_SPEC: spec } = load(file) as { REMOTE_NAME?: unknown; REMOTE_SPEC?: RemoteSpec };
  if (typeof name !== 'string' || typeof spec !== 'object') {
    throw new Error(`${file} must export REMOTE_NAME and REMOTE_SPEC`);
  }
  return { name, spec };
}
