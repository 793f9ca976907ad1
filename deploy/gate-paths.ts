/**
 * What the gate and the deploy commands say about the sample pages a route with parameters needs
 * (`--path /gifts/<a real giftId>`), and how they print a path that holds a capability id.
 */
import { REMOTES, type RemoteSpec } from 'shared/remotes';

/** The command that makes a real gift and redeem session on a rehearsal's staging (e2e/staging). */
export const STAGING_SAMPLE_COMMAND = 'npm run staging -- sample';

/**
 * The path segments a capability id follows: each registry route's segment before a parameter
 * (`gifts`, `redeem`), and the API's own (`/api/gifts/<id>`, `/api/redeems/<id>`).
 */
const ID_PARENTS = [
  ...new Set([
    'gifts',
    'redeems',
    ...(Object.values(REMOTES) as RemoteSpec[]).flatMap((spec) =>
      Object.values(spec.exposes).flatMap((module) =>
        module.routes.flatMap((route) => {
          const segments = route.path.split('/');
          return segments.flatMap((segment, index) =>
            segment.startsWith(':') && index > 0 ? [segments[index - 1] ?? ''] : [],
          );
        }),
      ),
    ),
  ]),
].filter(Boolean);
const ID_IN_TEXT = new RegExp(`(/(?:${ID_PARENTS.join('|')})/[A-Za-z0-9_-]{4})[A-Za-z0-9_-]{12,}`, 'g');

/**
 * Any text the gate prints or writes (a page's error, a console message, a URL in a browser's
 * message) with each id (16 or more URL-safe characters) after a gift's or a redeem session's
 * path segment cut to its first four characters: the gate's output ends up in CI logs.
 */
export function maskIds(text: string): string {
  return text.replace(ID_IN_TEXT, '$1…');
}

/**
 * The `--path` each route of the remote with parameters needs, as a hint: `--path
 * /gifts/<a real giftId>`; none for a remote whose routes have none.
 */
export function samplePathHints(spec: RemoteSpec): string[] {
  return Object.values(spec.exposes).flatMap((module) =>
    module.routes
      .filter((route) => route.path.includes(':'))
      .map((route) => `--path ${route.path.replace(/:([A-Za-z]+)/g, '<a real $1>')}`),
  );
}
