/** Which spec a remote's build follows: its own or the registry's, never both (they would drift apart). */
import { remoteSpec, type RemoteSpec } from 'shared/remotes';

export const OWN_SPEC_FILE = 'remote-spec.ts';

export interface SpecOrigin {
  spec: RemoteSpec;
  /** `the registry`, `its spec`. */
  label: string;
  file: string;
}

export function specOrigin(name: string, given?: RemoteSpec, lookup = remoteSpec): SpecOrigin | undefined {
  const registered = lookup(name);
  if (given && registered) {
    throw new Error(
      `"${name}" is a remote of the registry (shared/src/remotes.ts): its spec is its registry entry, give none in its webpack config`,
    );
  }
  if (given) return { spec: given, label: 'its spec', file: `${given.packageDir}/${OWN_SPEC_FILE}` };
  if (registered) return { spec: registered, label: 'the registry', file: 'shared/src/remotes.ts' };
  return undefined;
}

/** What to say of a remote with neither spec. */
export function noSpecMessage(name: string): string {
  return `"${name}" is not a remote in the registry (shared/src/remotes.ts) and its webpack config gives no spec: give it its ${OWN_SPEC_FILE} (docs/adding-a-remote.md).`;
}

/** A remote's spec, given or the registry's: the one its build publishes. */
export function specOf(name: string, given?: RemoteSpec): RemoteSpec {
  const origin = specOrigin(name, given);
  if (!origin) throw new Error(noSpecMessage(name));
  return origin.spec;
}
