import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_RATE, parseTrafficArgs } from './traffic-options';
import { addOutcomes, describeMinute, describeRun, emptyMinute, emptyOutcomes } from './traffic-stats';

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'traffic-test-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('npm run traffic command line', () => {
  it("goes to the running staging's site by default, 12 visitors a minute until stopped", () => {
    expect(() => parseTrafficArgs([], root, root)).toThrow('no --url, and no staging running');
    const dir = join(root, '.staging');
    mkdirSync(dir);
    writeFileSync(join(dir, 'staging.json'), JSON.stringify({ origin: 'http://127.0.0.1:4200' }));
    expect(parseTrafficArgs([], root, root)).toEqual({
      origin: 'http://127.0.0.1:4200',
      rate: DEFAULT_RATE,
      concurrency: 4,
      drainMs: 60_000,
      minutes: undefined,
      visitors: undefined,
    });
  });

  it('takes a --url, a --rate, --minutes and --visitors, and refuses what it cannot use', () => {
    expect(
      parseTrafficArgs(
        ['--url', 'http://127.0.0.1:4200/x', '--rate', '0.5', '--minutes', '2', '--visitors', '3', '--drain', '5'],
        root,
        root,
      ),
    ).toMatchObject({ origin: 'http://127.0.0.1:4200', rate: 0.5, minutes: 2, visitors: 3, drainMs: 5_000 });
    expect(() => parseTrafficArgs(['--url', 'ftp://x'], root, root)).toThrow('--url ftp://x is not http(s)');
    expect(() => parseTrafficArgs(['--url', 'http://x', '--rate', '0'], root, root)).toThrow(
      '--rate must be a positive number',
    );
    expect(() => parseTrafficArgs(['--url', 'http://x', '--visitors', '1.5'], root, root)).toThrow(
      '--visitors must be a positive whole number',
    );
    expect(parseTrafficArgs(['--help'], root, root)).toBe('help');
  });
});

describe("a minute's line", () => {
  it('says who started in the minute, who finished in it and how, who is still under way, and the builds their pages named', () => {
    const stats = emptyMinute();
    Object.assign(stats, { started: 22, reached: 18, withErrors: 2, errorPages: 1, underWay: 4 });
    stats.firstError = 'met the error page (500) at /game: Internal Server Error';
    stats.builds.set(
      'gifts',
      new Map([
        ['d412bd69-98f4-4de9-96dd-31e67fb85939', 9],
        ['rehearsal-throws-1', 3],
      ]),
    );
    expect(describeMinute(3, stats)).toBe(
      'traffic: minute 3: started 22, finished 20 (18 reached a voucher, 2 met errors, 1 of them the error page; first: met the error page (500) at /game: Internal Server Error), 4 under way; builds seen: gifts d412bd69… (9), rehearsal-throws-1 (3)',
    );
    expect(describeMinute(1, emptyMinute())).toBe(
      'traffic: minute 1: started 0, finished 0 (0 reached a voucher), 0 under way',
    );
    expect(describeMinute(2, { ...emptyMinute(), started: 20, reached: 19, late: 5, underWay: 3 })).toBe(
      'traffic: minute 2: started 20, finished 19 (19 reached a voucher), 3 under way, 5 came late, waiting for a visitor under way to finish (--concurrency)',
    );
  });

  it("adds the minutes up for the run's last line, with the visitors it left", () => {
    const total = emptyOutcomes();
    addOutcomes(total, { started: 10, reached: 8, withErrors: 1, errorPages: 0, firstError: 'page error: x' });
    addOutcomes(total, { started: 2, reached: 2, withErrors: 1, errorPages: 1, firstError: 'met the error page' });
    expect(describeRun(total, 0)).toBe(
      'traffic: in all: started 12, finished 12 (10 reached a voucher, 2 met errors, 1 of them the error page; first: page error: x)',
    );
    expect(describeRun({ ...emptyOutcomes(), started: 3, reached: 1 }, 2)).toBe(
      'traffic: in all: started 3, finished 1 (1 reached a voucher); 2 still under way were left',
    );
  });
});
