/**
 * Revokes a build with a known fault (`deploy <target> --revoke <id>`): the deployment names it in
 * `revoked`, so no visitor is given it again (docs/decisions/0031-revoking-a-build.md). The stable
 * build is refused: visitors would have no other build to get.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isBuildId, MAX_REVOKED, type CanaryState, type DeploymentState } from 'shared/deployment';
import { recordCanaryAbort } from './canary-aborts';
import { buildFolder, DeployError, META_DIR } from './deploy';
import { readDeployment, withDeploymentLock, writeDeployment } from './deployment';

export interface RevokeResult {
  buildId: string;
  state: DeploymentState;
  abortedCanary?: CanaryState;
  clearedPrevious?: boolean;
  already?: boolean;
}

function stableMessage(target: string, id: string): string {
  return (
    `build ${id} is the stable build of ${target}: every visitor gets it, and there is no other to give them. ` +
    'Deploy a fixed build (npm run deploy -w <remote> -- <target>) or roll back ' +
    '(npm run rollback -w <remote> -- <target>) first, then revoke it'
  );
}

/**
 * The oldest entries whose copy is pruned drop off; a full list of kept builds is refused, as
 * dropping one would make it usable again.
 */
function nextRevoked(target: string, earlier: readonly string[], id: string): string[] {
  const ids = [id, ...earlier.filter((other) => other !== id)];
  while (ids.length > MAX_REVOKED) {
    const gone = ids.findLastIndex((other) => !existsSync(join(target, buildFolder(other))));
    if (gone <= 0) {
      throw new DeployError(
        `${target} names ${MAX_REVOKED} revoked builds still kept whole: remove their copies first ` +
          '(npm run deploy -w <remote> -- <target> --build <stable id> --keep-builds <n>)',
      );
    }
    ids.splice(gone, 1);
  }
  return ids;
}

export async function revokeBuild(options: { target: string; buildId: string }): Promise<RevokeResult> {
  const target = resolve(options.target);
  const id = options.buildId;
  if (!isBuildId(id)) throw new DeployError(`"${id}" is not a build id`);
  if (!existsSync(target)) throw new DeployError(`${target} does not exist`);
  return withDeploymentLock(target, 'deploy --revoke', async () => {
    const state = await readDeployment(target);
    if (!state) throw new DeployError(`${target} is not a deployment: builds/latest.json names no build`);
    if (id === state.id) throw new DeployError(stableMessage(target, id));
    if (!existsSync(join(target, META_DIR, `${id}.json`))) {
      throw new DeployError(
        `build ${id} was never deployed or staged in ${target} (there is no ${META_DIR}/${id}.json)`,
      );
    }
    if (state.revoked?.includes(id)) return { buildId: id, state, already: true };
    const canary = state.canary?.id === id ? state.canary : undefined;
    const clearedPrevious = state.previous === id;
    const { state: written } = await writeDeployment(target, {
      revoked: nextRevoked(target, state.revoked ?? [], id),
      ...(canary ? { canary: null } : {}),
      ...(clearedPrevious ? { previous: null } : {}),
    });
    if (canary) {
      const reason = 'revoked while it ran as the canary';
      await recordCanaryAbort(target, {
        id,
        at: Date.now(),
        by: 'npm run deploy --revoke',
        reason,
        percent: canary.percent,
      });
    }
    return {
      buildId: id,
      state: written,
      ...(canary ? { abortedCanary: canary } : {}),
      ...(clearedPrevious ? { clearedPrevious } : {}),
    };
  });
}

export function describeRevocation(target: string, result: RevokeResult): string[] {
  const { buildId: id, state } = result;
  if (result.already) return [`deploy: build ${id} was revoked already in ${target}: nothing changed`];
  const lines = [`deploy: build ${id} is revoked in ${target}: no visitor is given it from now on`];
  if (result.abortedCanary) {
    lines.push(
      `deploy: it ran as the canary for ${result.abortedCanary.percent} % of visitors: aborted; its visitors get ` +
        `build ${state.id} on their next navigation`,
    );
  }
  if (result.clearedPrevious) {
    lines.push(`deploy: it was the build pages fall back to: they now have no fallback until the next deploy`);
  }
  lines.push(
    `deploy: rollback skips it and refuses it; the next deploy with --keep-builds removes ${buildFolder(id)}/`,
  );
  return lines;
}
