/**
 * The remotes composed beyond the registry's (docs/integrators.md "Adding a remote"), read alike
 * by the host's server and the API, so one environment file composes both.
 */
import { compositionOrder, grantProblems, grantsOf, MAX_REMOTES, remoteVariable } from 'shared/composition';
import { isRemoteName, pathPatternProblem, PUBLISHED_ROUTES_LIMITS } from 'shared/published-routes';
import { REMOTE_NAMES } from 'shared/remotes';
import { type Env, EnvError } from './env-error';

export const ADDED_REMOTES_VARIABLE = 'ADDED_REMOTES';

export interface AddedRemote {
  readonly name: string;
  readonly url: string;
}

export interface ComposedRemotes {
  /** The remotes beyond the registry's, in the order ADDED_REMOTES names them. */
  readonly added: readonly AddedRemote[];
  readonly grants: Readonly<Record<string, string[]>>;
}

const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');

function httpUrlProblem(value: string): string | undefined {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:' ? undefined : 'is not an http(s) URL';
  } catch {
    return 'is not a URL';
  }
}

function namesProblems(names: readonly string[]): string[] {
  const problems = names
    .filter((name) => !isRemoteName(name))
    .map(
      (name) =>
        `${ADDED_REMOTES_VARIABLE} names "${name.slice(0, 60)}", which is no remote name (a lower-case letter, then lower-case letters and digits; not host or other)`,
    );
  for (const name of names.filter((name) => (REMOTE_NAMES as readonly string[]).includes(name)))
    problems.push(`${ADDED_REMOTES_VARIABLE} names ${name}, which this build composes already`);
  if (new Set(names).size !== names.length) problems.push(`${ADDED_REMOTES_VARIABLE} names a remote twice`);
  if (names.length + REMOTE_NAMES.length > MAX_REMOTES)
    problems.push(
      `${ADDED_REMOTES_VARIABLE} names ${names.length} remotes: at most ${MAX_REMOTES - REMOTE_NAMES.length} can be added`,
    );
  return problems;
}

function pathsProblems(variable: string, paths: readonly string[]): string[] {
  const problems = paths.flatMap((path) => {
    const problem = pathPatternProblem(path);
    return problem === undefined
      ? []
      : [`${variable}: ${path.slice(0, 60)} is no route path (${problem.replace(/^its /, '')})`];
  });
  if (paths.length > PUBLISHED_ROUTES_LIMITS.routes)
    problems.push(`${variable} grants ${paths.length} paths, more than ${PUBLISHED_ROUTES_LIMITS.routes}`);
  return problems;
}

/** The composed remotes the environment sets; an EnvError naming every problem at once. */
export function composedRemotesFromEnv(env: Env): ComposedRemotes {
  const names = list(env[ADDED_REMOTES_VARIABLE]);
  const problems = namesProblems(names);
  const added: AddedRemote[] = [];
  const grants: Record<string, string[]> = {};
  for (const name of compositionOrder([...REMOTE_NAMES, ...names.filter((name) => isRemoteName(name))])) {
    const pathsVariable = remoteVariable(name, 'PATHS');
    const registry = (REMOTE_NAMES as readonly string[]).includes(name);
    if (env[pathsVariable] !== undefined && env[pathsVariable] !== '') {
      const paths = list(env[pathsVariable]);
      problems.push(...pathsProblems(pathsVariable, paths));
      grants[name] = paths;
    } else if (!registry)
      problems.push(`${pathsVariable} is not set: the paths the ${name} remote may claim, such as /${name}`);
    if (registry) continue;
    const urlVariable = remoteVariable(name, 'URL');
    const url = env[urlVariable];
    const urlProblem = url ? httpUrlProblem(url) : 'is not set';
    if (urlProblem) problems.push(`${urlVariable} ${urlProblem}: the ${name} remote's mf-manifest.json URL`);
    else added.push({ name, url: url as string });
  }
  // Each path shape is granted to one remote, the registry's own grants included, as the host checks its configuration.
  const granted = compositionOrder([...REMOTE_NAMES, ...added.map(({ name }) => name)]).map(
    (name) => [name, grants[name] ?? grantsOf({}, name)] as const,
  );
  problems.push(...grantProblems(granted));
  if (problems.length > 0) throw new EnvError(problems.join('; '));
  return { added, grants };
}
