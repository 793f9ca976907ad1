/**
 * Runs before the host's own entry in development builds only (`developmentEntries` in
 * host/webpack.config.ts; webpack.config.base.ts leaves it out of production builds): the page
 * reloads once when a remote's development server has a new build (./dev-server-reload.ts).
 */
import { CONFIG_URL } from '../config/config-url';
import { watchRemoteBuilds } from './dev-server-reload';

async function remotesOfThisPage(): Promise<Record<string, string>> {
  const response = await fetch(CONFIG_URL, { cache: 'no-store' });
  const config = (await response.json()) as { remotes?: unknown };
  const remotes = typeof config.remotes === 'object' && config.remotes !== null ? config.remotes : {};
  return Object.fromEntries(
    Object.entries(remotes).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

remotesOfThisPage().then(
  (remotes) =>
    watchRemoteBuilds(remotes, window.location.href, {
      openSocket: (url) => new WebSocket(url),
      reload: () => window.location.reload(),
      setTimeout: (callback, ms) => window.setTimeout(callback, ms),
      log: console,
    }),
  (error: unknown) => console.warn('[dev] the remotes are not watched for new builds:', error),
);
