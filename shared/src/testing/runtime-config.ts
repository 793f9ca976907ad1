/**
 * Test helper: a runtime configuration's `remotes` naming every remote of the registry, so a
 * test's configuration stays valid when a remote is added. Tests spread it under the values
 * they mean to pin: `{ ...everyRemote(), gifts: 'https://gifts.example.com/mf-manifest.json' }`.
 */
import { DEFAULT_PORTS } from '../ports';
import { REMOTE_NAMES, type RemoteName } from '../remotes';

/** Where the host looks for a remote by default: its server on this machine, at its port. */
export const localManifestUrl = (name: RemoteName) => `http://localhost:${DEFAULT_PORTS[name].port}/mf-manifest.json`;

export function everyRemote(url: (name: RemoteName) => string = localManifestUrl): Record<RemoteName, string> {
  return Object.fromEntries(REMOTE_NAMES.map((name) => [name, url(name)])) as Record<RemoteName, string>;
}
