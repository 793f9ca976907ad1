/** Reading a registry as Prometheus would: the series of a metric, and one series' value. */
import { type Registry } from 'prom-client';

export interface Series {
  name: string;
  labels: Record<string, string | number>;
  value: number;
}

/** Every series of `name` (a histogram's `_bucket`, `_sum` and `_count` too), the default labels included. */
export async function seriesOf(registry: Registry, name: string): Promise<Series[]> {
  return (await registry.getMetricsAsJSON())
    .filter((metric) => metric.name === name)
    .flatMap((metric) =>
      metric.values.map((value) => ({
        name: (value as { metricName?: string }).metricName ?? metric.name,
        labels: value.labels as Record<string, string | number>,
        value: value.value,
      })),
    );
}

const matches = (labels: Series['labels'], wanted: Record<string, string>) =>
  Object.entries(wanted).every(([key, value]) => String(labels[key]) === value);

/**
 * The sum over the series of `name` whose labels include `labels`: a counter's value, or with
 * `suffix` a histogram's `_count` or `_sum`. 0 when there is none.
 */
export async function valueOf(
  registry: Registry,
  name: string,
  labels: Record<string, string> = {},
  suffix: '' | '_count' | '_sum' = '',
): Promise<number> {
  return (await seriesOf(registry, name))
    .filter((series) => series.name === `${name}${suffix}` && matches(series.labels, labels))
    .reduce((sum, series) => sum + series.value, 0);
}
