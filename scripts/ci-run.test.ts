/** @jest-environment node */
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CI_RUN = join(__dirname, '..', '.ci', 'run');
let dir: string;

/**
 * `.ci/run` in a folder of its own whose package.json has the given scripts, with an `npm` on
 * PATH that only records how it was called: the run's phases, not the project's checks.
 */
function ciRun(scripts: Record<string, string>): { status: number | null; output: string } {
  mkdirSync(join(dir, '.ci'));
  copyFileSync(CI_RUN, join(dir, '.ci', 'run'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts }));
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'npm'), '#!/bin/sh\necho "npm $*"\n');
  chmodSync(join(bin, 'npm'), 0o755);
  const run = spawnSync('bash', [join(dir, '.ci', 'run')], {
    encoding: 'utf8',
    env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` },
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ci-run-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

test("runs npm ci, then validate's steps with npm test's opened, each timed, and sums them up", () => {
  const { status, output } = ciRun({ validate: 'echo checks && npm test', test: 'echo unit && echo browser' });
  expect(status).toBe(0);
  const phases = output.split('\n').filter((line) => /^== \d+ s: /.test(line));
  expect(phases.map((line) => line.replace(/^== \d+ s: /, ''))).toEqual([
    'npm ci',
    'echo checks',
    'echo unit',
    'echo browser',
  ]);
  expect(output).toContain('npm ci --no-audit --no-fund');
  const summary = output.slice(output.indexOf('== wall time by phase')).trim().split('\n').slice(1);
  expect(summary.map((line) => line.replace(/^ *\d+ s {2}/, ''))).toEqual([
    'npm ci',
    'echo checks',
    'echo unit',
    'echo browser',
    'in all',
  ]);
});

test('stops at a failing step with its exit status, and still says how long each phase before it took', () => {
  const { status, output } = ciRun({ validate: 'echo checks && npm test', test: 'exit 3 && echo browser' });
  expect(status).toBe(3);
  expect(output).not.toContain('echo browser');
  const summary = output.slice(output.indexOf('== wall time by phase')).trim().split('\n').slice(1);
  expect(summary.map((line) => line.replace(/^ *\d+ s {2}/, ''))).toEqual(['npm ci', 'echo checks', 'in all']);
});
