/**
 * Which spec a remote's build follows, and how its messages name it: the spec its webpack config
 * gives (its own `remote-spec.ts`: a remote the registry does not name, built and deployed on its
 * own) or its entry in the registry (`shared/src/remotes.ts`: the remotes this repository ships).
 * One source per remote: a registry remote whose config gives a spec as well is refused, as two
 * sources would drift apart.
 */
import { remoteSpec, type RemoteSpec } from 'shared/remotes';

/** A package's own spec file, beside its webpack config. */
export const OWN_SPEC_FILE = 'remote-spec.ts';

export interface SpecOrigin {
  spec: RemoteSpec;
  /** How a message names the source: `the registry`, `its spec`. */
  label: string;
  /** The file that holds it, for a message to point at. */
  file: string;
}

/** The spec of remote `name`, given or the registry's; undefined when neither has one. */
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
