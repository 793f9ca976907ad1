/**
 * Which rounds of an interleaved run a ratio may be quoted from: those the machine was otherwise
 * quiet in. Under other processes' load the bare server loses more to contention than the API, so
 * a busy machine flatters the API's ratio.
 */
import { median } from 'testbed/stats';
import { type CpuUse } from './cpu';
import { ratio, verdict } from './report';

/** Other processes' CPU, in cores, above which a round's ratio is not quoted. */
export const QUIET_OTHERS_CORES = 0.2;

/** Starts measuring the machine's CPU; the result gives the use since then (undefined off Linux). */
export type MeasureLoad = () => (() => CpuUse) | undefined;

/** The rounds' ratios the machine was quiet for; `busy` names the others. */
export function quietRatios(
  ratios: readonly number[],
  others: readonly (number | undefined)[],
): { quoted: number[]; busy: number[] } {
  const quoted: number[] = [];
  const busy: number[] = [];
  ratios.forEach((value, index) => {
    const load = others[index];
    if (load !== undefined && load > QUIET_OTHERS_CORES) busy.push(index + 1);
    else quoted.push(value);
  });
  return { quoted, busy };
}

/** The line that quotes a median ratio, or says why it does not. */
export function ratioLine(
  label: string,
  ratios: readonly number[],
  others: readonly (number | undefined)[],
  target: number,
): string {
  const { quoted, busy } = quietRatios(ratios, others);
  const middle = median(quoted);
  const skipped =
    busy.length > 0
      ? ` (rounds ${busy.join(', ')} left out: other processes used over ${QUIET_OTHERS_CORES} cores)`
      : '';
  if (middle === undefined)
    return `median ratio ${label}: not quoted, the machine was busy in every round${skipped}: rerun on a quiet machine`;
  const spread = quoted.length > 1 ? ` (${ratio(Math.min(...quoted))}–${ratio(Math.max(...quoted))})` : '';
  return `median ratio ${label}: ${ratio(middle)}${spread} over ${quoted.length} quiet round(s)${skipped}   target ≥ ${target}× bare: ${verdict(middle >= target)}`;
}
