import { comparisonRows, count, ms, ratioRows, unmeasured, type Metric } from './report';

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
});
