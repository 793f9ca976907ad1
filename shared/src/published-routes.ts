/**
 * What a remote publishes in its `mf-manifest.json` (`routes`): the reader takes it as another
 * team's input, keeps the routes it can vouch for and says why it left out each other one
 * (docs/decisions/0045-remotes-publish-their-routes.md).
 */
import {
  LAYOUT_NAMES,
  SERVER_DATA_QUERIES,
  VALIDATOR_NAMES,
  type LayoutName,
  type RemoteSpec,
  type RouteSpec,
  type ServerDataQuery,
  type ValidatorName,
} from './remotes';

export const PUBLISHED_ROUTES_FIELD = 'routes';
export const PUBLISHED_ROUTES_VERSION = 1;

export const PUBLISHED_ROUTES_LIMITS = {
  routes: 32,
  modules: 64,
  pathLength: 128,
  titleLength: 80,
  refusals: 40,
} as const;

export interface PublishedRoutesDocument {
  version: typeof PUBLISHED_ROUTES_VERSION;
  remote: string;
  exposes: Record<string, { routes: RouteSpec[] }>;
}

export function publishedRoutesOf(remote: string, spec: RemoteSpec): PublishedRoutesDocument {
  const exposes = Object.fromEntries(
    Object.entries(spec.exposes).map(([module, { routes }]) => [module, { routes: routes.map((r) => ({ ...r })) }]),
  );
  return { version: PUBLISHED_ROUTES_VERSION, remote, exposes };
}

export interface PublishedRoute extends RouteSpec {
  readonly module: string;
}

export interface RouteRefusal {
  readonly module?: string;
  readonly path?: string;
  readonly reason: string;
}

export interface PublishedRoutesReading {
  readonly remote?: string;
  readonly routes: PublishedRoute[];
  readonly refusals: RouteRefusal[];
}

export interface ReadOptions {
  remote?: string;
  layouts?: readonly string[];
  validators?: readonly string[];
  serverData?: readonly string[];
}

type RouteSets = Required<Omit<ReadOptions, 'remote'>>;

export const REMOTE_NAME = /^[a-z][a-z0-9]{0,39}$/;
export const RESERVED_REMOTE_NAMES: readonly string[] = ['host', 'other'];

export function isRemoteName(name: string): boolean {
  return REMOTE_NAME.test(name) && !RESERVED_REMOTE_NAMES.includes(name);
}
const MODULE_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const STATIC_SEGMENT = /^[A-Za-z0-9._~-]+$/;
const PARAM_SEGMENT = /^:([A-Za-z][A-Za-z0-9]*)$/;
// eslint-disable-next-line no-control-regex -- a title is one line of text
const CONTROL = /[\u0000-\u001f\u007f]/;

function shown(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    // A value no JSON parse makes (a cycle, a bigint), from a caller that built the document.
    text = typeof value;
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function pathPatternProblem(path: unknown): string | undefined {
  if (typeof path !== 'string') return `its path ${shown(path)} is not a string`;
  if (path.length > PUBLISHED_ROUTES_LIMITS.pathLength)
    return `its path is longer than ${PUBLISHED_ROUTES_LIMITS.pathLength} characters`;
  if (path === '/') return undefined;
  if (!path.startsWith('/') || path.endsWith('/'))
    return `its path ${shown(path)} must start with "/" and not end with one`;
  const params = new Set<string>();
  for (const segment of path.slice(1).split('/')) {
    const param = PARAM_SEGMENT.exec(segment)?.[1];
    if (param === undefined && (!STATIC_SEGMENT.test(segment) || segment === '.' || segment === '..'))
      return `its path ${shown(path)} has the segment ${shown(segment)}: a segment is letters, digits, ".", "_", "~", "-", or ":name"`;
    if (param !== undefined && params.has(param)) return `its path ${shown(path)} names :${param} twice`;
    if (param !== undefined) params.add(param);
  }
  return undefined;
}

function optionalIn(value: unknown, known: readonly string[], what: string): string | undefined {
  if (value === undefined || (typeof value === 'string' && known.includes(value))) return undefined;
  return `its ${what} ${shown(value)} is not one this host knows (${known.join(', ')})`;
}

function titleProblem(title: unknown): string | undefined {
  if (typeof title !== 'string' || title.trim() === '' || CONTROL.test(title))
    return `its title ${shown(title)} is not one line of text`;
  if (title.length > PUBLISHED_ROUTES_LIMITS.titleLength)
    return `its title is longer than ${PUBLISHED_ROUTES_LIMITS.titleLength} characters`;
  return undefined;
}

function routeProblem(route: Record<string, unknown>, sets: RouteSets): string | undefined {
  const { path, layout, title, validator, serverData, noindex, prerendered } = route;
  const flag = (value: unknown, name: string) =>
    value === undefined || typeof value === 'boolean' ? undefined : `its ${name} ${shown(value)} is not true or false`;
  return (
    pathPatternProblem(path) ??
    (typeof layout === 'string' && sets.layouts.includes(layout)
      ? undefined
      : `its layout ${shown(layout)} is not one this host knows (${sets.layouts.join(', ')})`) ??
    titleProblem(title) ??
    optionalIn(validator, sets.validators, 'validator') ??
    (typeof validator === 'string' && !(path as string).split('/').includes(`:${validator}`)
      ? `its validator ${validator} checks the parameter :${validator}, which its path does not have`
      : undefined) ??
    optionalIn(serverData, sets.serverData, 'server data query') ??
    flag(noindex, 'noindex') ??
    flag(prerendered, 'prerendered')
  );
}

function acceptedRoute(module: string, route: Record<string, unknown>): PublishedRoute {
  return {
    module,
    path: route.path as string,
    layout: route.layout as LayoutName,
    title: route.title as string,
    ...(route.validator === undefined ? {} : { validator: route.validator as ValidatorName }),
    ...(route.serverData === undefined ? {} : { serverData: route.serverData as ServerDataQuery }),
    ...(route.noindex === undefined ? {} : { noindex: route.noindex as boolean }),
    ...(route.prerendered === undefined ? {} : { prerendered: route.prerendered as boolean }),
  };
}

function refusalOf(route: unknown, kept: readonly PublishedRoute[], sets: RouteSets): string | undefined {
  if (!isRecord(route)) return 'the route is not an object';
  if (kept.length >= PUBLISHED_ROUTES_LIMITS.routes) return `more than ${PUBLISHED_ROUTES_LIMITS.routes} routes`;
  return (
    routeProblem(route, sets) ??
    (kept.some((earlier) => earlier.path === route.path) ? 'an earlier route of the remote has its path' : undefined)
  );
}

function documentProblem(document: unknown, remote: string | undefined): string | undefined {
  if (!isRecord(document)) return 'the routes document is not an object';
  if (document.version !== PUBLISHED_ROUTES_VERSION)
    return `the routes document's version ${shown(document.version)} is not ${PUBLISHED_ROUTES_VERSION}, the one this host reads`;
  if (typeof document.remote !== 'string' || !isRemoteName(document.remote))
    return `the routes document's remote ${shown(document.remote)} is no remote name (lower-case letters and digits)`;
  if (remote !== undefined && document.remote !== remote)
    return `the routes document is of the remote ${shown(document.remote)}, not of ${shown(remote)}`;
  if (!isRecord(document.exposes)) return "the routes document's exposes is not an object";
  return undefined;
}

/** A bad document gives no routes and one refusal; a bad route or module is left out alone. */
export function readPublishedRoutes(document: unknown, options: ReadOptions = {}): PublishedRoutesReading {
  const problem = documentProblem(document, options.remote);
  if (problem !== undefined) return { routes: [], refusals: [{ reason: problem }] };
  const { remote, exposes } = document as { remote: string; exposes: Record<string, unknown> };
  const sets = {
    layouts: options.layouts ?? LAYOUT_NAMES,
    validators: options.validators ?? VALIDATOR_NAMES,
    serverData: options.serverData ?? SERVER_DATA_QUERIES,
  };
  const routes: PublishedRoute[] = [];
  const refusals: RouteRefusal[] = [];
  let unreported = 0;
  const refuse = (refusal: RouteRefusal) => {
    if (refusals.length < PUBLISHED_ROUTES_LIMITS.refusals) refusals.push(refusal);
    else unreported += 1;
  };
  const modules = Object.entries(exposes);
  for (const [index, [module, entry]] of modules.entries()) {
    if (index >= PUBLISHED_ROUTES_LIMITS.modules) {
      refuse({ reason: `more than ${PUBLISHED_ROUTES_LIMITS.modules} exposed modules: the rest are left out` });
      break;
    }
    if (!MODULE_NAME.test(module)) {
      refuse({ module: module.slice(0, 64), reason: `the module name ${shown(module)} is no exposed module's name` });
      continue;
    }
    if (!isRecord(entry) || !Array.isArray(entry.routes)) {
      refuse({ module, reason: `the module ${module} gives no routes list` });
      continue;
    }
    for (const route of entry.routes as unknown[]) {
      const reason = refusalOf(route, routes, sets);
      if (reason === undefined) {
        routes.push(acceptedRoute(module, route as Record<string, unknown>));
        continue;
      }
      const path = isRecord(route) && typeof route.path === 'string' ? route.path : undefined;
      refuse({
        module,
        ...(path === undefined ? {} : { path: path.slice(0, PUBLISHED_ROUTES_LIMITS.pathLength) }),
        reason,
      });
    }
  }
  if (unreported > 0) refusals.push({ reason: `${unreported} more refusals not listed` });
  return { remote, routes, refusals };
}

export function manifestPublishedRoutes(
  manifest: unknown,
  options: ReadOptions = {},
): PublishedRoutesReading | undefined {
  if (!isRecord(manifest) || !Object.hasOwn(manifest, PUBLISHED_ROUTES_FIELD)) return undefined;
  return readPublishedRoutes(manifest[PUBLISHED_ROUTES_FIELD], options);
}
