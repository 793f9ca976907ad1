import { CHECK_ROUTE, parseArgs, USAGE } from './args';
import { ROUTES } from './routes';

describe('parseArgs', () => {
  it('defaults to 5 interleaved runs, a build, no Lighthouse', () => {
    expect(parseArgs([])).toEqual({
      runs: 5,
      warmRuns: 3,
      build: true,
      lighthouse: false,
      lighthouseRuns: 1,
      routes: [],
      check: false,
    });
  });

  it('reads --runs in both spellings', () => {
    expect(parseArgs(['--runs', '3']).runs).toBe(3);
    expect(parseArgs(['--runs=5']).runs).toBe(5);
  });

  it('makes --quick short, unless --runs says otherwise', () => {
    expect(parseArgs(['--quick'])).toMatchObject({ runs: 2, warmRuns: 1 });
    expect(parseArgs(['--quick', '--runs', '4'])).toMatchObject({ runs: 4, warmRuns: 1 });
  });

  it('reads --warm-runs, which neither --runs nor --quick overrides', () => {
    expect(parseArgs(['--runs', '3', '--warm-runs', '7'])).toMatchObject({ runs: 3, warmRuns: 7 });
    expect(parseArgs(['--warm-runs=5', '--quick'])).toMatchObject({ runs: 2, warmRuns: 5 });
    expect(() => parseArgs(['--warm-runs', 'x'])).toThrow('--warm-runs takes a whole number from 1 to 100, got "x"');
    expect(() => parseArgs(['--check', '--warm-runs', '3'])).toThrow('--check takes no other option, got --warm-runs');
  });

  it('reads the switches', () => {
    expect(parseArgs(['--no-build', '--lighthouse'])).toMatchObject({ build: false, lighthouse: true });
    expect(parseArgs(['--lighthouse-runs', '3'])).toMatchObject({ lighthouse: true, lighthouseRuns: 3 });
  });

  it('reads --routes, by the labels the report prints', () => {
    expect(parseArgs(['--routes', '/game,/gifts/{id}']).routes).toEqual(['/game', '/gifts/{id}']);
    expect(() => parseArgs(['--routes', '/games'])).toThrow(
      '--routes takes labels from /, /about, /game, /gifts/{id}, /redeem/{id}',
    );
    expect(() => parseArgs(['--routes'])).toThrow('--routes needs a value');
    expect(() => parseArgs(['--routes', ''])).toThrow('got ""');
  });

  it('refuses what it does not know, and a bad count', () => {
    expect(() => parseArgs(['--run', '3'])).toThrow('unknown option --run');
    expect(() => parseArgs(['--runs', '0'])).toThrow('--runs takes a whole number from 1 to 100, got "0"');
    expect(() => parseArgs(['--runs'])).toThrow('--runs needs a value');
  });

  it('makes --check one cold load of the gift page and one warm navigation per build, from the current builds', () => {
    expect(parseArgs(['--check'])).toEqual({
      runs: 1,
      warmRuns: 1,
      build: false,
      lighthouse: false,
      lighthouseRuns: 1,
      routes: ['/redeem/{id}'],
      check: true,
    });
    expect(ROUTES.map((route) => route.label)).toContain(CHECK_ROUTE);
    expect(USAGE).toContain('--check');
  });

  it('refuses --check with options that would change its run', () => {
    expect(() => parseArgs(['--check', '--runs', '3'])).toThrow('--check takes no other option, got --runs');
    expect(() => parseArgs(['--lighthouse', '--check'])).toThrow('got --lighthouse');
    expect(() => parseArgs(['--check', '--no-build', '--routes', '/'])).toThrow('got --no-build, --routes');
  });
});
