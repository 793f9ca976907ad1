/**
 * Bounds every download the federation runtime makes: a server that accepts a connection and
 * never answers would otherwise leave a route loading forever. Non-2xx manifests fail here too,
 * with their status, instead of as a JSON parse error.
 */
import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';

export function timeoutPlugin(timeoutMs: number): ModuleFederationRuntimePlugin {
  return {
    name: 'p-timeout-plugin',
    createScript() {
      return { timeout: timeoutMs };
    },
    async fetch(url, init) {
      const response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
      if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
      return response;
    },
  };
}
