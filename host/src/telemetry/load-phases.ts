/** Where each remote load stands, from the runtime's hooks, which only observe: they never throw. */
import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import { LOAD_PHASES, type LoadPhase } from 'shared/telemetry-values';

export interface LoadPhases {
  readonly plugin: ModuleFederationRuntimePlugin;
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
      afterLoadSnapshot(args) {
        advance(args.id, 'entry');
      },
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
