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
 * each of the others (`federated`, `CSR monolith`, `SSR monolith` → fed/CSR, fed/SSR).
 */
export function ratioRows<T>(metrics: readonly Metric<T>[], builds: readonly (readonly T[])[], first = ''): string[][] {
  return metrics.map((metric, index) => {
    const medians = builds.map((runs) => median(runs.map(metric.of)));
    const [own, ...others] = medians;
    const show = (value: number | undefined) => (value === undefined ? '–' : metric.format(value));
    return [
      index === 0 ? first : '',
      metric.label,
      ...medians.map(show),
      ...others.map((other) => formatRatio(ratio(own, other))),
    ];
  });
}
