/**
 * Where each remote load stands, from the federation runtime's own hooks, so a failure is told
 * by where it happened: fetching the manifest, running the remote's entry, downloading the
 * exposed module's chunks, or running the module. A load is named as the loader asks for it
 * (`gifts/GamePage`), as the runtime names it in its hooks. The hooks observe only: they never
 * throw and return nothing, which leaves what the runtime does unchanged.
 */
import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import { LOAD_PHASES, type LoadPhase } from 'shared/telemetry-values';

export interface LoadPhases {
  readonly plugin: ModuleFederationRuntimePlugin;
  /** The phase the latest attempt of a load reached; `manifest` for one no hook has seen. */
  phaseOf(id: string): LoadPhase;
}

export function createLoadPhases(): LoadPhases {
  const phases = new Map<string, LoadPhase>();
  /** Only forward, and only for a load under way: a prefetch of the same module sets nothing. */
  const advance = (id: string | undefined, phase: LoadPhase) => {
    const current = id === undefined ? undefined : phases.get(id);
    if (current !== undefined && LOAD_PHASES.indexOf(current) < LOAD_PHASES.indexOf(phase)) {
      phases.set(id as string, phase);
    }
  };
  return {
    plugin: {
      name: 'p-load-phases',
      // Each attempt starts again from the manifest (which the runtime may have cached).
      beforeRequest(args) {
        phases.set(args.id, 'manifest');
      },
      // The manifest is read: the entry's script comes next.
      afterLoadSnapshot(args) {
        advance(args.id, 'entry');
      },
      // The entry ran and its container started: the module's chunks come next.
      beforeGetExpose(args) {
        advance(args.id, 'chunk');
      },
      afterGetExpose(args) {
        if (!args.error) advance(args.id, 'expose');
      },
    },
    phaseOf: (id) => phases.get(id) ?? 'manifest',
  };
}
