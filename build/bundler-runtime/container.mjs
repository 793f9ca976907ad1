/**
 * What a remote's container takes for `@module-federation/webpack-bundler-runtime` (decision
 * 0052): its own federation object and `@module-federation/runtime`'s `init` (which finds the
 * container's instance by this build's identifier and keeps it), and the page's one copy of the
 * bundler runtime's functions (provide.mjs), which hold no state of their own.
 */
import { init } from '@module-federation/runtime';
import { BUNDLER_RUNTIME_GLOBAL } from './global.mjs';

const provided = globalThis[BUNDLER_RUNTIME_GLOBAL];
if (!provided) {
  throw new Error(
    'The federation bundler runtime is not on this page: a remote container runs on a page whose host (or standalone runtime script) provides it',
  );
}

export default {
  // The bundler runtime's `init` calls only this one of the runtime's functions.
  runtime: { init },
  instance: undefined,
  initOptions: undefined,
  bundlerRuntime: { ...provided.bundlerRuntime, S: {} },
  attachShareScopeMap: provided.attachShareScopeMap,
  bundlerRuntimeOptions: {},
};
