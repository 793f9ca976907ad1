/**
 * What `npm run traffic` counts and the lines it prints: a minute's (visitors who started in it,
 * visitors who finished in it and how, those still under way at its end) and the whole run's.
 */

/** How visitors ended, summed over a minute or a run. */
export interface Outcomes {
  /** Visitors who arrived and opened their first page. */
  started: number;
  /** Finished visitors who reached their voucher and met no error on the way. */
  reached: number;
  /** Finished visitors who met an error (a failed step, the error page, a page error, a failed request). */
  withErrors: number;
  /** Of `withErrors`, those whose journey ended on the host's error page. */
  errorPages: number;
  /** The first error met, for the line. */
  firstError?: string;
}

/** What one minute saw. */
export interface MinuteStats extends Outcomes {
  /** Arrivals that waited for a visitor under way to finish (`concurrency` reached): the rate was not kept. */
  late: number;
  /** Visitors still under way as the minute ended. */
  underWay: number;
  /** Per remote, per build id: the visitors whose page named it. */
  builds: Map<string, Map<string, number>>;
}

export function emptyMinute(): MinuteStats {
  return { started: 0, reached: 0, withErrors: 0, errorPages: 0, late: 0, underWay: 0, builds: new Map() };
}

export function emptyOutcomes(): Outcomes {
  return { started: 0, reached: 0, withErrors: 0, errorPages: 0 };
}

/** Adds a minute's outcomes to the run's. */
export function addOutcomes(total: Outcomes, minute: Outcomes): void {
  total.started += minute.started;
  total.reached += minute.reached;
  total.withErrors += minute.withErrors;
  total.errorPages += minute.errorPages;
  total.firstError ??= minute.firstError;
}

/** A build id as a minute's line shows it: a long one (a UUID) by its first 8 characters. */
const shortBuild = (build: string) => (build.length > 28 ? `${build.slice(0, 8)}…` : build);

/** `gifts d412bd69… (10), rehearsal-1 (2); content …`. */
export function describeBuilds(builds: MinuteStats['builds']): string {
  return [...builds]
    .map(
      ([remote, perBuild]) =>
        `${remote} ${[...perBuild].map(([build, count]) => `${shortBuild(build)} (${count})`).join(', ')}`,
    )
    .join('; ');
}

/** `started 22, finished 20 (18 reached a voucher, 2 met errors, 1 of them the error page; first: …)`. */
export function describeOutcomes(outcomes: Outcomes): string {
  const finished = outcomes.reached + outcomes.withErrors;
  const pages = outcomes.errorPages > 0 ? `, ${outcomes.errorPages} of them the error page` : '';
  const errors =
    outcomes.withErrors > 0 ? `, ${outcomes.withErrors} met errors${pages}; first: ${outcomes.firstError}` : '';
  return `started ${outcomes.started}, finished ${finished} (${outcomes.reached} reached a voucher${errors})`;
}

/**
 * A minute's line: who started in it, who finished in it (whenever they started), and who was
 * still under way as it ended, so that the started of one minute are the finished or under way
 * of it and the next ones.
 */
export function describeMinute(minute: number, stats: MinuteStats): string {
  const late =
    stats.late > 0 ? `, ${stats.late} came late, waiting for a visitor under way to finish (--concurrency)` : '';
  const builds = stats.builds.size > 0 ? `; builds seen: ${describeBuilds(stats.builds)}` : '';
  return `traffic: minute ${minute}: ${describeOutcomes(stats)}, ${stats.underWay} under way${late}${builds}`;
}

/** The run's last line: everything it saw, and the visitors it left when it could wait no longer. */
export function describeRun(total: Outcomes, left: number): string {
  const leftText = left > 0 ? `; ${left} still under way were left` : '';
  return `traffic: in all: ${describeOutcomes(total)}${leftText}`;
}
