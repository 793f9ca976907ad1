/** Past its cap a metric counts new label sets as `other`s: a mistake costs series up to the documented figure, never unbounded memory. */
import { type Counter, type Histogram } from 'prom-client';
import { OTHER } from 'shared/telemetry';

export type Labels<L extends string> = Record<L, string>;

export interface CapLog {
  warn(details: object, message: string): void;
}

export class LabelCap<L extends string> {
  private readonly seen = new Set<string>();
  private readonly overflow: Labels<L>;
  private told = false;

  constructor(
    private readonly metric: string,
    private readonly labelNames: readonly L[],
    readonly cap: number,
    private readonly log: CapLog,
  ) {
    this.overflow = Object.fromEntries(labelNames.map((name) => [name, OTHER])) as Labels<L>;
  }

  bound(labels: Labels<L>): Labels<L> {
    const key = JSON.stringify(this.labelNames.map((name) => labels[name]));
    if (this.seen.has(key)) return labels;
    if (this.seen.size < this.cap) {
      this.seen.add(key);
      return labels;
    }
    if (!this.told) {
      this.told = true;
      this.log.warn(
        { metric: this.metric, cap: this.cap },
        'telemetry: the metric holds its most label sets; new ones count as other',
      );
    }
    return this.overflow;
  }
}

export interface CappedCounter<L extends string> {
  inc(labels: Labels<L>, value?: number): void;
}

export interface CappedHistogram<L extends string> {
  observe(labels: Labels<L>, value: number): void;
}

export const cappedCounter = <L extends string>(counter: Counter<L>, cap: LabelCap<L>): CappedCounter<L> => ({
  inc: (labels, value) => counter.inc(cap.bound(labels), value),
});

export const cappedHistogram = <L extends string>(histogram: Histogram<L>, cap: LabelCap<L>): CappedHistogram<L> => ({
  observe: (labels, value) => histogram.observe(cap.bound(labels), value),
});
