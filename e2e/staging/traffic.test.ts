import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeMinute, emptyMinute } from './traffic';
import { DEFAULT_RATE, parseTrafficArgs } from './traffic-options';

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
      minutes: undefined,
      visitors: undefined,
    });
  });

  it('takes a --url, a --rate, --minutes and --visitors, and refuses what it cannot use', () => {
    expect(
      parseTrafficArgs(
        ['--url', 'http://127.0.0.1:4200/x', '--rate', '0.5', '--minutes', '2', '--visitors', '3'],
        root,
        root,
      ),
    ).toMatchObject({ origin: 'http://127.0.0.1:4200', rate: 0.5, minutes: 2, visitors: 3 });
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
  it('says how many came, reached a voucher, met errors, and the builds their pages named', () => {
    const stats = emptyMinute();
    stats.visitors = 12;
    stats.done = 10;
    stats.withErrors = 2;
    stats.firstError = 'locator.waitFor: Timeout';
    stats.builds.set(
      'gifts',
      new Map([
        ['d412bd69-98f4-4de9-96dd-31e67fb85939', 9],
        ['rehearsal-throws-1', 3],
      ]),
    );
    expect(describeMinute(3, stats)).toBe(
      'traffic: minute 3: 12 visitors, 10 reached a voucher, 2 met errors (first: locator.waitFor: Timeout); builds seen: gifts d412bd69… (9), rehearsal-throws-1 (3)',
    );
    expect(describeMinute(1, emptyMinute())).toBe('traffic: minute 1: 0 visitors, 0 reached a voucher, no errors');
    expect(describeMinute(2, { ...emptyMinute(), visitors: 20, done: 20, late: 5 })).toBe(
      'traffic: minute 2: 20 visitors, 20 reached a voucher, no errors; 5 came late, waiting for a visitor under way (--concurrency)',
    );
  });
});
