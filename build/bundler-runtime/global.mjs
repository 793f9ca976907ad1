/** The global the page's bundler runtime is published on (provide.mjs) and read from (container.mjs). */
export const BUNDLER_RUNTIME_GLOBAL = '_FEDERATION_BUNDLER_RUNTIME';
