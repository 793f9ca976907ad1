/** The printed tables. */
import { median } from 'testbed/stats';
import { ratio } from './stats';

export interface Metric<T> {
  label: string;
  /** One value of a run. */
  of(run: T): number;
  format(value: number): string;
}

export const ms = (value: number) => `${Math.round(value)} ms`;
export const count = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(1));
export const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

export const times = (value: number) => `${value.toFixed(2)}×`;

function formatRatio(value: number | undefined): string {
  return value === undefined ? '–' : `${value.toFixed(2)}×`;
}

/** Columns padded to their widest cell; the first column left-aligned, the others right-aligned. */
export function table(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, index) => (widths[index] = Math.max(widths[index] ?? 0, cell.length)));
  return rows
    .map((row) =>
      row
        .map((cell, index) => (index === 0 ? cell.padEnd(widths[index] ?? 0) : cell.padStart(widths[index] ?? 0)))
        .join('   ')
        .trimEnd(),
    )
    .join('\n');
}

/**
 * The labels of the metrics a run has no number for (NaN: the page never reported it), so that
 * such a run counts as failed rather than leaving a median to the others, or a '–' in the table.
 */
export function unmeasured<T>(metrics: readonly Metric<T>[], run: T): string[] {
  return metrics.filter((metric) => !Number.isFinite(metric.of(run))).map((metric) => metric.label);
}

/** One row per metric: the federated and monolith medians and their ratio. */
export function comparisonRows<T>(
  metrics: readonly Metric<T>[],
  federated: readonly T[],
  monolith: readonly T[],
  first = '',
): string[][] {
  return metrics.map((metric, index) => {
    const fed = median(federated.map(metric.of));
    const mono = median(monolith.map(metric.of));
    const show = (value: number | undefined) => (value === undefined ? '–' : metric.format(value));
    return [index === 0 ? first : '', metric.label, show(fed), show(mono), formatRatio(ratio(fed, mono))];
  });
}

export function heading(text: string): string {
  return `\n${text}\n${'='.repeat(text.length)}`;
}

/**
 * One row per metric over several builds: each build's median, then the first build's ratio to
 * each of the others (`federated`, `CSR monolith`, `SSR monolith` → fed/CSR, fed/SSR). A ratio is
 * the median of the rounds' ratios, each round's first-build run over the other build's run of the
 * same round, and beside it their spread (min–max) when there are two rounds or more: a reader
 * sees when a figure is within the noise. `rounds` gives each run's round, parallel to `builds`;
 * without it the runs pair by position.
 */
export function ratioRows<T>(
  metrics: readonly Metric<T>[],
  builds: readonly (readonly T[])[],
  first = '',
  rounds?: readonly (readonly number[])[],
): string[][] {
  const [own = [], ...others] = builds;
  const roundsOf = (index: number) => rounds?.[index] ?? builds[index]?.map((_, position) => position) ?? [];
  return metrics.map((metric, index) => {
    const medians = builds.map((runs) => median(runs.map(metric.of)));
    const show = (value: number | undefined) => (value === undefined ? '–' : metric.format(value));
    const ratios = others.map((other, otherIndex) =>
      formatSpread(pairedRatios(metric, own, roundsOf(0), other, roundsOf(otherIndex + 1))),
    );
    return [index === 0 ? first : '', metric.label, ...medians.map(show), ...ratios];
  });
}

/** One ratio per round both builds measured: the first's value over the other's. */
export function pairedRatios<T>(
  metric: Metric<T>,
  own: readonly T[],
  ownRounds: readonly number[],
  other: readonly T[],
  otherRounds: readonly number[],
): number[] {
  const otherByRound = new Map(otherRounds.map((round, position) => [round, other[position]]));
  const ratios: number[] = [];
  own.forEach((run, position) => {
    const paired = otherByRound.get(ownRounds[position] ?? Number.NaN);
    const value = paired === undefined ? undefined : ratio(metric.of(run), metric.of(paired));
    if (value !== undefined) ratios.push(value);
  });
  return ratios;
}

/** `1.24× (1.18–1.31)`: the median ratio and, over two rounds or more, the lowest and highest. */
export function formatSpread(ratios: readonly number[]): string {
  const middle = median(ratios);
  if (middle === undefined) return '–';
  if (ratios.length < 2) return formatRatio(middle);
  return `${formatRatio(middle)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`;
}
