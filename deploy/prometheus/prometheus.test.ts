/**
 * promtool on the configuration and the rules: the rendered configuration loads (with the rule
 * files it names), the rules pass its lint, and the unit tests of every alert
 * (rules/alerts.test.yml) pass; a failure shows promtool's own output.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FAILED_LOAD_OUTCOMES } from 'shared/telemetry';
import { PROMTOOL_PATH } from 'testbed/prometheus';
import { JUDGE_HEARTBEAT_MS, UNJUDGED_AFTER_S } from '../canary-judge';
import { renderPrometheusConfig, RULES_DIR } from './render-config';

const RULE_FILES = ['recording.rules.yml', 'alerts.rules.yml'].map((file) => join(RULES_DIR, file));
const ALERT_TESTS = join(RULES_DIR, 'alerts.test.yml');
const REPOSITORY = join(RULES_DIR, '..', '..', '..');

/** The alerts of the rules file, in its order. */
function alertNames(): string[] {
  return [...readFileSync(RULE_FILES[1] ?? '', 'utf8').matchAll(/^\s+- alert: (\w+)$/gm)].map(([, name]) => name ?? '');
}

/** promtool's output; throws it when promtool fails. */
function promtool(args: string[]): string {
  const run = spawnSync(PROMTOOL_PATH, args, { cwd: RULES_DIR, encoding: 'utf8' });
  const output = `${run.stdout ?? ''}${run.stderr ?? ''}${run.error ? run.error.message : ''}`;
  if (run.status !== 0) throw new Error(`promtool ${args.join(' ')} failed (${run.status}):\n${output}`);
  return output;
}

test('promtool check config: the rendered configuration, with its rule files', () => {
  const folder = mkdtempSync(join(tmpdir(), 'prometheus-config-'));
  try {
    const file = join(folder, 'prometheus.yml');
    writeFileSync(
      file,
      renderPrometheusConfig({
        GIFT_BOX_METRICS_API: '10.0.0.5:9304,10.0.0.6:9304',
        GIFT_BOX_METRICS_REMOTES: 'gifts=127.0.0.1:9301,redeem=127.0.0.1:9302,content=127.0.0.1:9303',
        GIFT_BOX_ALERTMANAGERS: '127.0.0.1:9093',
      }),
    );
    const output = promtool(['check', 'config', '--lint-fatal', file]);
    expect(output).toContain('SUCCESS: 2 rule files found');
    expect(output).toContain('is valid prometheus config file syntax');
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test('promtool check rules: every rule file, lint errors fatal', () => {
  expect(promtool(['check', 'rules', '--lint=all', '--lint-fatal', ...RULE_FILES])).not.toContain('FAILED');
});

test('promtool test rules: the unit tests of every alert pass', () => {
  expect(promtool(['test', 'rules', ALERT_TESTS])).toContain('SUCCESS');
});

test('each alert has a unit test where it fires and one where it must not', () => {
  const alerts = alertNames();
  expect(alerts).toHaveLength(8);
  // Each evaluation of an alert in the tests, and whether it expects it firing.
  const cases = readFileSync(ALERT_TESTS, 'utf8')
    .split(/^\s+- eval_time: /m)
    .slice(1)
    .map((block) => ({
      alert: /alertname: (\w+)/.exec(block)?.[1],
      fires: !/exp_alerts: \[\]/.test(block),
    }));
  for (const alert of alerts) {
    expect([alert, cases.some((test) => test.alert === alert && test.fires)]).toEqual([alert, true]);
    expect([alert, cases.some((test) => test.alert === alert && !test.fires)]).toEqual([alert, true]);
  }
});

test('CanaryUnjudged waits as long as the deploy tools say a canary may go unjudged, longer than their heartbeat', () => {
  const rule = /- alert: CanaryUnjudged\n\s+expr: \|\n([\s\S]*?)\n\s+labels:/.exec(
    readFileSync(RULE_FILES[1] ?? '', 'utf8'),
  );
  expect(rule?.[1]).toMatch(new RegExp(`> ${UNJUDGED_AFTER_S}$`));
  expect(UNJUDGED_AFTER_S * 1000).toBeGreaterThan(JUDGE_HEARTBEAT_MS * 2);
});

test("the failure ratio counts the contract's failed outcomes", () => {
  expect(readFileSync(RULE_FILES[0] ?? '', 'utf8')).toContain(`outcome=~"${FAILED_LOAD_OUTCOMES.join('|')}"`);
});

test("the README's alert table and the operations guide's alerts name every alert of the rules file, and no other", () => {
  const readme = readFileSync(join(REPOSITORY, 'README.md'), 'utf8');
  const table = readme.slice(readme.indexOf('| alert '), readme.indexOf('\n\n', readme.indexOf('| alert ')));
  const tabled = [...table.matchAll(/^\| `(\w+)` +\|/gm)].map(([, name]) => name);
  expect(tabled.sort()).toEqual(alertNames().sort());
  const guide = readFileSync(join(REPOSITORY, 'docs', 'operations.md'), 'utf8');
  const section = guide.slice(guide.indexOf('### The alerts'), guide.indexOf('### The dashboard'));
  const described = [...section.matchAll(/^\*\*(\w+)\*\* \((?:critical|warning)\)/gm)].map(([, name]) => name);
  expect(described.sort()).toEqual(alertNames().sort());
});
