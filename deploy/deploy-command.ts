/**
 * The deploy command's command line (`npm run deploy -w <remote> -- <target folder> …`): publish
 * (deploy.ts), stage, make a kept build current, or revoke a build (revoke.ts).
 */
import { basename, join, resolve } from 'node:path';
import { REMOTES, type RemoteSpec } from 'shared/remotes';
import { ownSpecOf } from '../build/package-spec';
import { defineCommand, refuse, type CommandLine } from './command-line';
import { buildFolder, deploy, MIN_KEPT_BUILDS, type CliIo, type DeployResult } from './deploy';
import { HOST_LAYOUT, layoutOfPackage, type DeployLayout } from './deploy-layout';
import { samplePathHints, STAGING_SAMPLE_COMMAND } from './gate-paths';
import { describeRevocation, revokeBuild } from './revoke';

const USAGE = `Usage: npm run deploy -w <remote or host> -- <target folder> [--from <build folder>] [--keep-builds <n>]
       npm run deploy -w <remote> -- <target folder> --stage [--from <build folder>]
       npm run stage -w <remote> -- <target folder> [--from <build folder>]   (the same as --stage)
       npm run deploy -w <remote> -- <target folder> --build <id> [--keep-builds <n>]
       npm run deploy -w <remote> -- <target folder> --revoke <id>

Publishes the remote's build (default: its dist/) into the target folder, keeping the previous
builds' files; remoteEntry.js, mf-manifest.json and builds/latest.json are replaced last. The
build is also kept whole in builds/<id>/: a host can be pinned to builds/<id>/mf-manifest.json,
and npm run rollback makes it current again later. One command at a time changes a folder: a
deploy is refused while another deploy, rollback or canary command runs on it, and while a
canary runs (promote or abort it first).
The host's folder (the one nginx serves at /) keeps its build files under _app/builds/ instead,
its index.html (the pages' template) swapped after its manifests; it has no canary, gate,
release or --revoke.
  --from <folder>      the build to publish (default: dist/ of the package)
  --stage              only keep the build whole in builds/<id>/: nothing visitors get changes;
                       then try it (npm run gate), start it as a canary (npm run canary) or make
                       it current (--build <id>)
  --build <id>         make a build the folder holds whole (a staged one) current
  --revoke <id>        withdraw a build with a known fault: never given to a visitor again (a
                       canary running it is aborted; as the previous build, pages stop falling
                       back to it), refused by rollback and canary start, removed by the next
                       --keep-builds; not the stable build: deploy or roll back first
  --keep-builds <n>    also remove the files of older builds, keeping the newest n that can be
                       made current again (n >= ${MIN_KEPT_BUILDS}), and always the build this one
                       replaces, the one before it, a running canary and builds newer than it
  --allow-stale-dist   publish dist/ even when it is not the build of the sources beside it
                       (refused otherwise: run npm run build first)
  -h, --help           this text
An option's value may also follow an equals sign: --keep-builds=3.`;

const OPTIONS = {
  from: { type: 'string' },
  stage: { type: 'boolean' },
  build: { type: 'string' },
  revoke: { type: 'string' },
  'keep-builds': { type: 'string' },
} as const;

type Values = CommandLine<typeof OPTIONS>['values'];

/** `deploy <target> --revoke <id>`: alone, with the target folder only. */
async function revokeCommand(values: Values, positionals: readonly string[], io: CliIo): Promise<number> {
  const buildId = values.revoke as string;
  if (buildId === '') refuse('--revoke needs a value');
  const others = (['from', 'stage', 'build', 'keep-builds'] as const).filter((name) => values[name] !== undefined);
  if (others.length > 0) refuse(`--revoke changes only the deployment's state: not with --${others[0]}`);
  const target = resolve(io.cwd, oneTarget(positionals));
  try {
    for (const line of describeRevocation(target, await revokeBuild({ target, buildId }))) io.out(line);
    return 0;
  } catch (error) {
    io.err(`deploy: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

const line = (label: string, text: string) => `  ${label.padEnd(34)}${text}`;

/**
 * What to run after `--stage`, each command as it works: the gate and the release with the
 * `--path` each route with parameters needs (and where to get one), the release run (which judges
 * the canary) before a bare canary (which nobody judges). A remote that carries its own spec
 * (`gated: false`) has no gate or release run, which take the registry's remotes only.
 */
export function stagedNextLines(
  packageName: string,
  target: string,
  buildId: string,
  { gated = true }: { gated?: boolean } = {},
): string[] {
  const makeCurrent = line(
    'make it current for everyone:',
    `npm run deploy -w ${packageName} -- ${target} --build ${buildId}`,
  );
  const bareCanary = [
    line(
      'a bare canary, judged by nobody:',
      `npm run canary -w ${packageName} -- ${target} start ${buildId} --percent 10`,
    ),
    line('', '(nothing aborts it: watch it yourself, then promote or abort it)'),
  ];
  if (!gated) return [...bareCanary, makeCurrent];
  const spec = (Object.values(REMOTES) as RemoteSpec[]).find((remote) => remote.packageDir === packageName);
  const paths = spec ? samplePathHints(spec) : [];
  const pathArgs = paths.map((path) => ` ${path}`).join('');
  return [
    line(
      'try it on the production host:',
      `PREVIEW_KEY=… npm run gate -w ${packageName} -- ${target} ${buildId} --host <URL>${pathArgs}`,
    ),
    ...(paths.length > 0
      ? [
          line(
            '',
            `(a real page per route with parameters: make one through the API, or on staging: ${STAGING_SAMPLE_COMMAND})`,
          ),
        ]
      : []),
    line(
      'release it, judged as a canary:',
      `PREVIEW_KEY=… npm run release -w ${packageName} -- ${target} --build ${buildId} --host <URL> --prometheus <URL>${pathArgs}`,
    ),
    line('', '(gated, then given to 10 %, 50 %, 100 % of visitors, aborted by itself when they fare worse)'),
    ...bareCanary,
    makeCurrent,
  ];
}

/** What the command says of a deploy that succeeded. */
function describeDeploy(
  result: DeployResult,
  {
    target,
    packageDir,
    keepBuilds,
    layout,
  }: { target: string; packageDir: string; keepBuilds?: number; layout: DeployLayout },
): string[] {
  const folder = buildFolder(result.buildId, layout);
  const host = layout === HOST_LAYOUT;
  const pin = `…/${folder}/mf-manifest.json`;
  const part = basename(packageDir);
  if (result.staged) {
    return [
      `deploy: build ${result.buildId} staged in ${target}: kept whole in ${folder}/ ` +
        `(${result.added.length} added, ${result.replaced.length} replaced, ${result.unchanged.length} unchanged); ` +
        'nothing visitors get has changed',
      host
        ? `deploy: make it current with npm run deploy -w ${part} -- ${target} --build ${result.buildId}`
        : [
            `deploy: pin a host to it with ${pin}. Next:`,
            ...stagedNextLines(part, target, result.buildId, { gated: !ownSpecOf(packageDir) }),
          ].join('\n'),
    ];
  }
  return [
    `deploy: build ${result.buildId} published to ${target}: ${result.added.length} added, ` +
      `${result.replaced.length} replaced, ${result.unchanged.length} unchanged` +
      (keepBuilds === undefined ? '; earlier builds kept' : `; ${result.removed.length} files of older builds removed`),
    `deploy: kept whole in ${folder}/` +
      (host ? '' : `: pin a host to it with ${pin}`) +
      (result.previousId ? `; go back to build ${result.previousId} with npm run rollback -w ${part}` : ''),
  ];
}

/** The one target folder of a command line that takes nothing else. */
function oneTarget(positionals: readonly string[]): string {
  if (positionals.length !== 1)
    refuse(positionals.length === 0 ? 'the target folder is missing' : 'give exactly one target folder');
  return positionals[0] as string;
}

/** `--keep-builds`'s number, when given. */
function keepBuildsOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const keepBuilds = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(keepBuilds) || keepBuilds < MIN_KEPT_BUILDS) {
    refuse(`--keep-builds must be a whole number of at least ${MIN_KEPT_BUILDS}, got "${value}"`);
  }
  return keepBuilds;
}

/** Publishes, stages or makes current the build the command line names. */
async function publish(
  { values, positionals }: Pick<CommandLine<typeof OPTIONS>, 'values' | 'positionals'>,
  io: CliIo,
): Promise<number> {
  const layout = layoutOfPackage(io.packageDir);
  if (values.revoke !== undefined) {
    if (layout === HOST_LAYOUT) refuse('--revoke is for a remote: the host has no canary to withdraw a build from');
    return revokeCommand(values, positionals, io);
  }
  const { from, stage, build: buildId } = values;
  if (from === '') refuse('--from needs a value');
  if (buildId === '') refuse('--build needs a value');
  if (buildId !== undefined && (from !== undefined || stage)) {
    refuse(`--build takes a build the folder holds: not with ${stage ? '--stage' : '--from'}`);
  }
  if (stage && values['keep-builds'] !== undefined) refuse('--stage removes nothing: not with --keep-builds');
  const keepBuilds = keepBuildsOf(values['keep-builds']);
  const target = resolve(io.cwd, oneTarget(positionals));
  const source = from === undefined ? join(io.packageDir, 'dist') : resolve(io.cwd, from);
  try {
    const result = await deploy(
      buildId === undefined ? { source, target, keepBuilds, stage, layout } : { buildId, target, keepBuilds, layout },
    );
    for (const line of describeDeploy(result, { target, packageDir: io.packageDir, keepBuilds, layout })) io.out(line);
    return 0;
  } catch (error) {
    io.err(`deploy: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

export const deployCommand = defineCommand({
  name: 'deploy',
  summary: 'publish a build into a target folder, stage it, make a kept one current, or revoke one',
  usage: USAGE,
  options: OPTIONS,
  run: (line, io: CliIo) => publish(line, io),
});

const STAGE_USAGE = `Usage: npm run stage -w <remote or host> -- <target folder> [--from <build folder>]

Keeps the build (default: the package's dist/) whole in the target's builds/<id>/, as
npm run deploy -- <target folder> --stage does: nothing visitors get changes.
  --from <folder>      the build to stage (default: dist/ of the package)
  --allow-stale-dist   stage dist/ even when it is not the build of the sources beside it
  -h, --help           this text`;

export const stageCommand = defineCommand({
  name: 'stage',
  summary: 'keep a build whole in the target folder, changing nothing visitors get',
  usage: STAGE_USAGE,
  options: { from: { type: 'string' } },
  run: ({ values, positionals }, io: CliIo) => publish({ values: { from: values.from, stage: true }, positionals }, io),
});
