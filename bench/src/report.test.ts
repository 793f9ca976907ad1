import { comparisonRows, count, formatSpread, ms, ratioRows, unmeasured, type Metric } from './report';

interface Run {
  lcp: number;
  requests: number;
}

const METRICS: Metric<Run>[] = [
  { label: 'LCP', of: (run) => run.lcp, format: ms },
  { label: 'requests', of: (run) => run.requests, format: count },
];

describe('unmeasured', () => {
  it('names the metrics a run has no number for', () => {
    expect(unmeasured(METRICS, { lcp: Number.NaN, requests: 3 })).toEqual(['LCP']);
    expect(unmeasured(METRICS, { lcp: Number.POSITIVE_INFINITY, requests: Number.NaN })).toEqual(['LCP', 'requests']);
  });

  it('is empty for a run with every figure, zeros included', () => {
    expect(unmeasured(METRICS, { lcp: 812, requests: 0 })).toEqual([]);
  });
});

describe('comparisonRows', () => {
  it('prints medians and their ratio, and a dash where a build has no run', () => {
    expect(comparisonRows(METRICS, [{ lcp: 900, requests: 4 }], [{ lcp: 600, requests: 2 }], '/')).toEqual([
      ['/', 'LCP', '900 ms', '600 ms', '1.50×'],
      ['', 'requests', '4', '2', '2.00×'],
    ]);
    expect(comparisonRows(METRICS, [], [{ lcp: 600, requests: 0 }])).toEqual([
      ['', 'LCP', '–', '600 ms', '–'],
      ['', 'requests', '–', '0', '–'],
    ]);
  });
});

describe('ratioRows', () => {
  it("prints each build's median, then the first build's ratio to each other build", () => {
    const federated = [{ lcp: 900, requests: 4 }];
    const csr = [{ lcp: 1800, requests: 2 }];
    const ssr = [{ lcp: 600, requests: 2 }];
    expect(ratioRows(METRICS, [federated, csr, ssr], '/')).toEqual([
      ['/', 'LCP', '900 ms', '1800 ms', '600 ms', '0.50×', '1.50×'],
      ['', 'requests', '4', '2', '2', '2.00×', '2.00×'],
    ]);
  });

  it('prints a dash for a build without runs, and for its ratio', () => {
    expect(ratioRows(METRICS, [[{ lcp: 900, requests: 1 }], [], [{ lcp: 300, requests: 1 }]])[0]).toEqual([
      '',
      'LCP',
      '900 ms',
      '–',
      '300 ms',
      '–',
      '3.00×',
    ]);
  });

  it('gives each ratio as the median of the rounds’ ratios, with their spread, pairing the runs of a round', () => {
    const federated = [
      { lcp: 900, requests: 4 },
      { lcp: 1000, requests: 4 },
      { lcp: 1300, requests: 4 },
    ];
    const csr = [
      { lcp: 1800, requests: 2 },
      { lcp: 1000, requests: 2 },
      { lcp: 1300, requests: 2 },
    ];
    const ssr = [
      { lcp: 600, requests: 2 },
      { lcp: 800, requests: 2 },
      { lcp: 650, requests: 2 },
    ];
    expect(ratioRows(METRICS, [federated, csr, ssr])).toEqual([
      ['', 'LCP', '1000 ms', '1300 ms', '650 ms', '1.00× (0.50–1.00)', '1.50× (1.25–2.00)'],
      ['', 'requests', '4', '2', '2', '2.00× (2.00–2.00)', '2.00× (2.00–2.00)'],
    ]);
  });

  it('pairs by round, so a failed run of one build leaves its round out of the ratio, not a neighbour in', () => {
    // The SSR build's second round failed: its runs are rounds 0 and 2.
    const federated = [
      { lcp: 900, requests: 1 },
      { lcp: 2000, requests: 1 },
      { lcp: 1200, requests: 1 },
    ];
    const ssr = [
      { lcp: 600, requests: 1 },
      { lcp: 600, requests: 1 },
    ];
    const rows = ratioRows(METRICS, [federated, ssr], '', [
      [0, 1, 2],
      [0, 2],
    ]);
    expect(rows[0]).toEqual(['', 'LCP', '1200 ms', '600 ms', '1.75× (1.50–2.00)']);
  });
});

describe('formatSpread', () => {
  it('prints one ratio alone, a dash for none, and the lowest and highest beside the median of several', () => {
    expect(formatSpread([])).toBe('–');
    expect(formatSpread([1.5])).toBe('1.50×');
    expect(formatSpread([1.31, 1.18, 1.24])).toBe('1.24× (1.18–1.31)');
  });
});
