/**
 * How a canary's judge (the release run) shows it is at work, and when a canary counts as judged
 * by nobody. The judge records a judgement (canary.ts `recordJudgement`) when it takes the canary
 * on and at least every JUDGE_HEARTBEAT_MS while it waits and analyses; the API exports the time
 * (`giftbox_canary_judged_timestamp_seconds`), and CanaryUnjudged
 * (deploy/prometheus/rules/alerts.rules.yml) fires once neither the canary's start nor its last
 * judgement is newer than UNJUDGED_AFTER_S.
 */

/** The longest a judge waits between two judgements it records, however long its interval. */
export const JUDGE_HEARTBEAT_MS = 30_000;

/**
 * A canary neither started nor judged for this long has nobody judging it: the release run's
 * default interval (60 s) and twice that again as a margin, which also covers the API's read of
 * the deployment (BUILDS_POLL_MS, 60 s by default), the scrape and the rules' evaluation between a
 * judgement and the alert seeing it.
 */
export const UNJUDGED_AFTER_S = 180;

/**
 * Who a release run is, as a canary's `judgedBy` names it: the command only, since
 * `builds/latest.json` is served to anyone; the deployment's lock names the run's process and
 * machine to the operators.
 */
export const RELEASE_JUDGE = 'npm run release';

/**
 * The steps a release run takes a canary it adopts at `percent` through: that percent first (it
 * is analysed where it is), then the run's steps above it; a canary at 0 %, which no visitor
 * gets, from the run's first step.
 */
export function adoptedSteps(percent: number, steps: readonly number[]): number[] {
  return percent === 0 ? [...steps] : [percent, ...steps.filter((step) => step > percent)];
}
