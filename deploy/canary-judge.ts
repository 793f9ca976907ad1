/** The judge's heartbeat: docs/decisions/0037-every-canary-has-a-judge.md. */

export const JUDGE_HEARTBEAT_MS = 30_000;

export const UNJUDGED_AFTER_S = 180;

// The command only: `builds/latest.json` is public.
export const RELEASE_JUDGE = 'npm run release';

export function adoptedSteps(percent: number, steps: readonly number[]): number[] {
  return percent === 0 ? [...steps] : [percent, ...steps.filter((step) => step > percent)];
}
