/**
 * Makes an earlier build current again from the copy every deploy keeps, in a deploy's order. The
 * emergency command: it runs whether or not a canary runs, and drops one. Nothing of a build is
 * removed; the hosts' version checks see another id and load it on the next navigation.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { HISTORY_LENGTH, isRevoked, type CanaryState } from 'shared/deployment';
import { latestAbortOf, readCanaryAborts, recordCanaryAbort, type CanaryAbort } from './canary-aborts';
import { defineCommand, refuse } from './command-line';
import {
  buildBefore,
  buildHistory,
  buildFolder,
  currentBuildId,
  DeployError,
  deployedBuilds,
  ownCopyProblem,
  publish,
  readBuild,
  type CliIo,
  type FileAction,
} from './deploy';
import { latestFileOf, layoutOfPackage, metaDirOf, REMOTE_LAYOUT, type DeployLayout } from './deploy-layout';
import { readDeployment, withDeploymentLock, writeDeployment } from './deployment';

export interface KnownBuild {
  id: string;
  timestamp: number;
  current: boolean;
  /** The running canary, `previous`, staged (never current), or revoked (never current again). */
  role?: { kind: 'canary'; percent: number } | { kind: 'previous' } | { kind: 'staged' } | { kind: 'revoked' };
  problem?: string;
  aborted?: CanaryAbort;
}

export interface Deployment {
  target: string;
  currentId: string;
  builds: KnownBuild[];
}

export interface RollbackOptions {
  target: string;
  buildId?: string;
  onFile?: (path: string, action: FileAction) => void;
  layout?: DeployLayout;
}

export interface RollbackResult {
  buildId: string;
  previousId: string;
  added: string[];
  replaced: string[];
  unchanged: string[];
  droppedCanary?: CanaryState;
  nextBack?: string;
}

export class RollbackError extends DeployError {
  constructor(
    message: string,
    readonly deployment?: Deployment,
  ) {
    super(message);
    this.name = 'RollbackError';
  }
}

const PRUNED_NOTE = 'pruned by deploy --keep-builds, or deployed before deploys kept each build whole';

export async function listBuilds(targetFolder: string, layout = REMOTE_LAYOUT): Promise<Deployment> {
  const target = resolve(targetFolder);
  const latestFile = latestFileOf(layout);
  if (!existsSync(target)) throw new RollbackError(`${target} does not exist`);
  if (!existsSync(join(target, latestFile))) {
    throw new RollbackError(`${target} is not a deployment: ${latestFile} is missing (deploy a build there first)`);
  }
  const currentId = await currentBuildId(target, layout);
  if (currentId === undefined) {
    throw new RollbackError(`${target} is not a deployment: ${join(target, latestFile)} names no build`);
  }
  const metas = await deployedBuilds(target, layout);
  if (!metas.some((meta) => meta.id === currentId)) {
    throw new RollbackError(
      `${target} is not a deployment this command knows: build ${currentId}, which ${latestFile} names, has no ` +
        `${metaDirOf(layout)}/${currentId}.json`,
    );
  }
  const [state, history, aborts] = await Promise.all([
    readDeployment(target, latestFile),
    buildHistory(target, layout),
    readCanaryAborts(target),
  ]);
  const abortOf = latestAbortOf(aborts);
  // The history names the last HISTORY_LENGTH current builds: only a newer one it lacks was never current.
  const named = metas.filter((meta) => history?.includes(meta.id));
  const historyFrom =
    history && history.length < HISTORY_LENGTH ? -Infinity : Math.min(...named.map((meta) => meta.timestamp));
  const roleOf = ({ id, timestamp }: { id: string; timestamp: number }): KnownBuild['role'] => {
    if (isRevoked(state, id)) return { kind: 'revoked' };
    if (state?.canary?.id === id) return { kind: 'canary', percent: state.canary.percent };
    if (state?.previous === id) return { kind: 'previous' };
    if (history && !history.includes(id) && timestamp > historyFrom) return { kind: 'staged' };
    return undefined;
  };
  const builds: KnownBuild[] = [];
  for (const meta of metas) {
    const current = meta.id === currentId;
    const problem = current ? undefined : await ownCopyProblem(target, meta.id, layout);
    const role = current ? undefined : roleOf(meta);
    const aborted = current || role?.kind === 'canary' ? undefined : abortOf.get(meta.id);
    builds.push({
      id: meta.id,
      timestamp: meta.timestamp,
      current,
      ...(role ? { role } : {}),
      ...(problem ? { problem } : {}),
      ...(aborted ? { aborted } : {}),
    });
  }
  return { target, currentId, builds };
}

function restorable(builds: readonly KnownBuild[]): KnownBuild[] {
  return builds.filter((build) => build.role?.kind !== 'revoked');
}

function chooseBuild(deployment: Deployment, requested: string | undefined, layout: DeployLayout): KnownBuild {
  const { target, currentId, builds } = deployment;
  if (requested === undefined) {
    const chosen = buildBefore(restorable(builds), currentId);
    if (!chosen) {
      throw new RollbackError(`no build in ${target} was built before the current one, ${currentId}`, deployment);
    }
    return chosen;
  }
  const chosen = builds.find((build) => build.id === requested);
  if (!chosen) {
    throw new RollbackError(
      `build ${requested} was never deployed to ${target} (there is no ${metaDirOf(layout)}/${requested}.json)`,
      deployment,
    );
  }
  if (chosen.role?.kind === 'revoked') {
    throw new RollbackError(
      `build ${requested} is revoked in ${target} (deploy --revoke): it is never made current again; roll back to ` +
        'another build or deploy a fixed one',
      deployment,
    );
  }
  return chosen;
}

export async function rollback(options: RollbackOptions): Promise<RollbackResult> {
  const target = resolve(options.target);
  if (!existsSync(target)) throw new RollbackError(`${target} does not exist`);
  return withDeploymentLock(target, 'rollback', () => rollbackHeld({ ...options, target }));
}

async function rollbackHeld(options: RollbackOptions): Promise<RollbackResult> {
  const { layout = REMOTE_LAYOUT } = options;
  const deploymentFile = latestFileOf(layout);
  const deployment = await listBuilds(options.target, layout);
  const { target, currentId } = deployment;
  const chosen = chooseBuild(deployment, options.buildId, layout);
  const label =
    options.buildId === undefined ? `the build before the current one, ${chosen.id},` : `build ${chosen.id}`;
  if (chosen.problem) {
    throw new RollbackError(
      `${label} cannot be made current again: its files are no longer in ${target} (${chosen.problem}; ${PRUNED_NOTE})`,
      deployment,
    );
  }
  const canary = (await readDeployment(target, deploymentFile))?.canary;
  // What a page falls back to, and a further plain rollback restores: only a build it can load.
  const back = buildBefore(restorable(deployment.builds), chosen.id);
  const nextBack = back && !back.problem && back.id !== chosen.id ? back.id : undefined;
  const source = join(target, buildFolder(chosen.id, layout));
  // Without a copy there is nothing to put back but the deployment's state.
  let result: Pick<RollbackResult, 'added' | 'replaced' | 'unchanged'>;
  if (chosen.current && (await ownCopyProblem(target, chosen.id, layout)) !== undefined) {
    await writeDeployment(target, { canary: null, previous: nextBack ?? null }, deploymentFile);
    result = { added: [], replaced: [], unchanged: [] };
  } else {
    result = await publish(await readBuild(source, layout), source, target, {
      ownCopy: false,
      onFile: options.onFile,
      layout,
      deployment: { previous: nextBack ?? null },
    });
  }
  if (canary) {
    await recordCanaryAbort(target, {
      id: canary.id,
      at: Date.now(),
      by: 'npm run rollback',
      reason: `dropped by the rollback to ${chosen.id}`,
      percent: canary.percent,
    });
  }
  return {
    buildId: chosen.id,
    previousId: currentId,
    added: result.added,
    replaced: result.replaced,
    unchanged: result.unchanged,
    ...(canary ? { droppedCanary: canary } : {}),
    ...(nextBack ? { nextBack } : {}),
  };
}

function isoOf(timestamp: number): string {
  return new Date(timestamp).toISOString();
}

export function describeBuilds(deployment: Deployment): string {
  const width = Math.max(...deployment.builds.map((build) => build.id.length));
  const lines = deployment.builds.map((build) => {
    const role = build.role;
    const state = [
      build.current ? 'current' : undefined,
      role?.kind === 'canary' ? `canary, ${role.percent} % of visitors` : undefined,
      role?.kind === 'previous' ? 'previous: pages fall back to it' : undefined,
      role?.kind === 'staged' && !build.aborted ? 'staged: never current' : undefined,
      role?.kind === 'revoked' ? 'revoked: never given to visitors or made current again' : undefined,
      build.aborted
        ? `aborted canary (${isoOf(build.aborted.at)}, at ${build.aborted.percent} %, by ${build.aborted.by}): ` +
          build.aborted.reason
        : undefined,
      build.problem ? 'files pruned: cannot be made current' : undefined,
    ]
      .filter((part) => part !== undefined)
      .join('; ');
    return `${build.current ? '*' : ' '} ${build.id.padEnd(width)}  built ${isoOf(build.timestamp)}  ${state}`.trimEnd();
  });
  return `Builds in ${deployment.target}, newest first:\n${lines.join('\n')}`;
}

const USAGE = `Usage: npm run rollback -w <remote or host> -- <target folder> [<build id>] [--list]

Makes an earlier build current again in the folder a deploy published to, from the copy the
deploy kept in builds/<id>/, in a deploy's order: the build's files, then remoteEntry.js,
mf-stats.json, mf-manifest.json and, last, builds/latest.json (then
builds/history.json names it first). No file of a build is removed; a remote's standalone
development shell (index.html) is never published. The host's folder keeps them under
_app/builds/ instead, and its index.html (the pages' template) is swapped after its manifests.
  <build id>    the build to make current (default: the one built before the current one,
                revoked builds skipped; a revoked build is refused)
  --list        only list the builds the folder knows, newest first: which is current, the
                canary, the previous build (pages fall back to it), staged and revoked ones,
                and canaries aborted (when, by what, why)
  -h, --help    this text`;

export const rollbackCommand = defineCommand({
  name: 'rollback',
  summary: 'make an earlier build current again, or list the builds a folder knows',
  usage: USAGE,
  options: { list: { type: 'boolean' } },
  run: ({ values, positionals }, io: Pick<CliIo, 'cwd' | 'out' | 'err'> & Partial<Pick<CliIo, 'packageDir'>>) => {
    if (positionals.length === 0) refuse('the target folder is missing');
    if (positionals.length > (values.list ? 1 : 2))
      refuse(values.list ? '--list takes the target folder only' : 'give a target folder and at most one build id');
    const layout = io.packageDir === undefined ? REMOTE_LAYOUT : layoutOfPackage(io.packageDir);
    return rollbackTo(resolve(io.cwd, positionals[0] as string), positionals[1], values.list === true, layout, io);
  },
});

async function rollbackTo(
  target: string,
  buildId: string | undefined,
  list: boolean,
  layout: DeployLayout,
  io: Pick<CliIo, 'out' | 'err'>,
): Promise<number> {
  try {
    if (list) {
      io.out(describeBuilds(await listBuilds(target, layout)));
      return 0;
    }
    const result = await rollback({ target, buildId, layout });
    const deployment = await listBuilds(target, layout);
    const built = deployment.builds.find((build) => build.id === result.buildId)?.timestamp;
    io.out(
      (result.buildId === result.previousId
        ? `rollback: build ${result.buildId} was already current in ${target}`
        : `rollback: build ${result.buildId}${built === undefined ? '' : ` (built ${isoOf(built)})`} is current ` +
          `again in ${target}, in place of build ${result.previousId}`) +
        `: ${result.added.length} added, ${result.replaced.length} replaced, ${result.unchanged.length} unchanged`,
    );
    if (result.droppedCanary) {
      io.out(
        `rollback: the canary, build ${result.droppedCanary.id} (${result.droppedCanary.percent} % of visitors), was ` +
          `dropped: its visitors get build ${result.buildId} on their next navigation; its files stay`,
      );
    }
    io.out(describeBuilds(deployment));
    return 0;
  } catch (error) {
    io.err(`rollback: ${error instanceof Error ? error.message : String(error)}`);
    if (error instanceof RollbackError && error.deployment) io.err(describeBuilds(error.deployment));
    return 1;
  }
}
