/** The sample paths a route with parameters needs, and capability ids cut in what is printed. */
import { REMOTES, type RemoteSpec } from 'shared/remotes';

export const STAGING_SAMPLE_COMMAND = 'npm run staging -- sample';

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

/** The gate's output ends up in CI logs: an id after a gift's or session's segment is cut to four characters. */
export function maskIds(text: string): string {
  return text.replace(ID_IN_TEXT, '$1…');
}

export function samplePathHints(spec: RemoteSpec): string[] {
  return Object.values(spec.exposes).flatMap((module) =>
    module.routes
      .filter((route) => route.path.includes(':'))
      .map((route) => `--path ${route.path.replace(/:([A-Za-z]+)/g, '<a real $1>')}`),
  );
}
