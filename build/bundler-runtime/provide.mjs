/**
 * The federation's bundler runtime, once per page: its functions, which a container calls with
 * its own `__webpack_require__`, published for the remotes' containers (container.mjs) as the
 * federation runtime itself is (`externalRuntime`). The host's main.js provides them from its
 * own copy, through this module's runtime plugin; a remote's standalone page from its
 * `federation-runtime` script (federation-plugins.ts).
 */
import { attachShareScopeMap } from '@module-federation/webpack-bundler-runtime/dist/attachShareScopeMap.js';
import { consumes } from '@module-federation/webpack-bundler-runtime/dist/consumes.js';
import { getSharedFallbackGetter } from '@module-federation/webpack-bundler-runtime/dist/getSharedFallbackGetter.js';
import { init } from '@module-federation/webpack-bundler-runtime/dist/init.js';
import { initContainerEntry } from '@module-federation/webpack-bundler-runtime/dist/initContainerEntry.js';
import { initializeSharing } from '@module-federation/webpack-bundler-runtime/dist/initializeSharing.js';
import { installInitialConsumes } from '@module-federation/webpack-bundler-runtime/dist/installInitialConsumes.js';
import { remotes } from '@module-federation/webpack-bundler-runtime/dist/remotes.js';
import { BUNDLER_RUNTIME_GLOBAL } from './global.mjs';

export function provideBundlerRuntime() {
  globalThis[BUNDLER_RUNTIME_GLOBAL] ??= {
    attachShareScopeMap,
    bundlerRuntime: {
      remotes,
      consumes,
      I: initializeSharing,
      installInitialConsumes,
      initContainerEntry,
      init,
      getSharedFallbackGetter,
    },
  };
}

/** The host's runtime plugin: before its federation starts, so before any remote's container loads. */
export default function provideBundlerRuntimePlugin() {
  return {
    name: 'provide-bundler-runtime',
    beforeInit(args) {
      provideBundlerRuntime();
      return args;
    },
  };
}
