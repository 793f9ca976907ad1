import { buildPlan, parseLoaderArgs, roundTotals, summaryRows, totalRatio, type LoaderRun } from './loader-runs';

function run(round: number, part: string, loader: LoaderRun['loader'], ms: number): LoaderRun {
  return { round, part, loader, ms, jsGzipBytes: 1000 };
}

describe('the loader comparison', () => {
  it('takes --runs (3 by default) and --help, and refuses anything else', () => {
    expect(parseLoaderArgs([])).toEqual({ runs: 3 });
    expect(parseLoaderArgs(['--runs', '5'])).toEqual({ runs: 5 });
    expect(parseLoaderArgs(['--runs=2'])).toEqual({ runs: 2 });
    expect(() => parseLoaderArgs(['--runs', '0'])).toThrow(/--runs/);
    expect(() => parseLoaderArgs(['--quick'])).toThrow('unknown option --quick');
  });

  it('builds each part with both loaders back to back, the first of the pair alternating', () => {
    const plan = buildPlan(2, ['host', 'remote']).map(({ round, part, loader }) => `${round} ${part} ${loader}`);
    expect(plan).toEqual([
      '1 host ts-loader',
      '1 host esbuild-loader',
      '1 remote esbuild-loader',
      '1 remote ts-loader',
      '2 host ts-loader',
      '2 host esbuild-loader',
      '2 remote esbuild-loader',
      '2 remote ts-loader',
    ]);
  });

  it("alternates across rounds too when the parts are odd in number, so no part's pair always starts the same", () => {
    const firsts = buildPlan(2, ['a', 'b', 'c'])
      .filter((_, index) => index % 2 === 0)
      .map(({ part, loader }) => `${part} ${loader}`);
    expect(firsts).toEqual([
      'a ts-loader',
      'b esbuild-loader',
      'c ts-loader',
      'a esbuild-loader',
      'b ts-loader',
      'c esbuild-loader',
    ]);
  });

  it("totals each round's builds per loader, and compares the medians of those totals", () => {
    const runs = [
      run(1, 'host', 'ts-loader', 10),
      run(1, 'remote', 'ts-loader', 5),
      run(1, 'host', 'esbuild-loader', 8),
      run(1, 'remote', 'esbuild-loader', 4),
      run(2, 'host', 'ts-loader', 30),
      run(2, 'remote', 'ts-loader', 30),
      run(2, 'host', 'esbuild-loader', 10),
      run(2, 'remote', 'esbuild-loader', 5),
      run(3, 'host', 'ts-loader', 12),
      run(3, 'remote', 'ts-loader', 6),
      run(3, 'host', 'esbuild-loader', 10),
      run(3, 'remote', 'esbuild-loader', 5),
    ];
    expect(roundTotals(runs, 'ts-loader').map((total) => total.ms)).toEqual([15, 60, 18]);
    expect(roundTotals(runs, 'esbuild-loader').map((total) => total.ms)).toEqual([12, 15, 15]);
    expect(totalRatio(runs)).toBe(18 / 15);
    const rows = summaryRows(runs, ['host', 'remote']);
    expect(rows[0]).toEqual(['part', 'measure', 'ts-loader', 'esbuild-loader', 'ts ÷ esbuild']);
    expect(rows.find((row) => row[0] === 'host')).toEqual(['host', 'cold build', '12 ms', '10 ms', '1.20×']);
    expect(rows.find((row) => row[0] === 'total')).toEqual(['total', 'cold build', '18 ms', '15 ms', '1.20×']);
  });
});
