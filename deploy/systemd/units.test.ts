/**
 * @jest-environment node
 *
 * The supervision units as systemd reads them: each passes `systemd-analyze verify` without a
 * warning, with its paths moved to this checkout and its node to the one running the tests (verify
 * checks that ExecStart's program exists); each starts the bundle its package's `serve` script
 * runs, restarts on failure, runs hardened, and hands each secret over as a credential read
 * through its `<NAME>_FILE` variable.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REMOTE_NAMES, REMOTES } from 'shared/remotes';
import { verifyUnits } from 'testbed/systemd';

const ROOT = join(__dirname, '..', '..');
const INSTALLED_ROOT = '/srv/gift-box';
const INSTALLED_NODE = '/usr/bin/node';

/** Each unit and the instances it is verified as. */
const UNITS = {
  'gift-box-api@.service': { part: 'api', instances: ['3004', '3014'] },
  'gift-box-host@.service': { part: 'host', instances: ['3000'] },
  'gift-box-remote@.service': { part: 'remote', instances: [...REMOTE_NAMES] },
} as const;

type Unit = keyof typeof UNITS;
const unitNames = Object.keys(UNITS) as Unit[];

const textOf = (unit: string) => readFileSync(join(__dirname, unit), 'utf8');

/** Every value of `key` in the unit's [Service] section. */
function serviceValues(unit: string, key: string): string[] {
  const service =
    textOf(unit)
      .split(/^\[Service\]$/m)[1]
      ?.split(/^\[/m)[0] ?? '';
  return [...service.matchAll(new RegExp(`^${key}=(.*)$`, 'gm'))].map((match) => match[1] as string);
}

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'systemd-units-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The unit as it would be installed from this checkout, under `name` in the temporary folder. */
function installHere(unit: string, name = unit, text = textOf(unit)): string {
  const path = join(folder, name);
  writeFileSync(path, text.split(INSTALLED_NODE).join(process.execPath).split(INSTALLED_ROOT).join(ROOT));
  return path;
}

const instancePath = (template: string, instance: string) => join(folder, template.replace('@.', `@${instance}.`));

it('has a unit for the API, the host and the remotes, and no other', () => {
  expect(readdirSync(__dirname).filter((file) => file.endsWith('.service'))).toEqual(unitNames.sort());
});

it.each(unitNames)('%s passes systemd-analyze verify without a warning, as each instance', (unit) => {
  installHere(unit);
  const verified = verifyUnits(UNITS[unit].instances.map((instance) => instancePath(unit, instance)));
  expect(verified).toEqual({ status: 0, output: '' });
});

it('is checked strictly enough that a misspelt setting fails the check', () => {
  const unit = 'gift-box-host@.service';
  installHere(unit, 'misspelt@.service', textOf(unit).replace('ProtectSystem=strict', 'ProtectSystm=strict'));
  expect(verifyUnits([instancePath('misspelt@.service', '3000')]).output).toContain("Unknown key 'ProtectSystm'");
});

it.each(unitNames)("%s starts the bundle its package's serve script runs", (unit) => {
  const [execStart] = serviceValues(unit, 'ExecStart');
  const [program, ...args] = (execStart ?? '').split(' ');
  expect(program).toBe(INSTALLED_NODE);
  const bundle = args.at(-1) ?? '';
  expect(bundle.startsWith(`${INSTALLED_ROOT}/`)).toBe(true);
  const packageDirs =
    UNITS[unit].part === 'remote'
      ? REMOTE_NAMES.map((name) => {
          // The instance name is the remote's: remote-%i is its package folder.
          expect(REMOTES[name].packageDir).toBe(`remote-${name}`);
          return REMOTES[name].packageDir;
        })
      : [UNITS[unit].part];
  for (const dir of packageDirs) {
    const { scripts } = JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as {
      scripts: { serve: string };
    };
    const relative = bundle.slice(INSTALLED_ROOT.length + 1).replace('remote-%i', dir);
    expect(`node ${args.slice(0, -1).join(' ')} ${relative.slice(dir.length + 1)}`).toBe(scripts.serve);
  }
});

it.each(unitNames)(
  '%s restarts on failure, runs as a user of its own and writes nowhere but its temporary folder',
  (unit) => {
    expect(serviceValues(unit, 'Restart')).toEqual(['on-failure']);
    expect(serviceValues(unit, 'RestartSec')).toHaveLength(1);
    for (const [key, value] of [
      ['DynamicUser', 'yes'],
      ['ProtectSystem', 'strict'],
      ['ProtectHome', 'yes'],
      ['PrivateTmp', 'yes'],
      ['NoNewPrivileges', 'yes'],
    ])
      expect([unit, key, serviceValues(unit, key as string)]).toEqual([unit, key, [value]]);
    expect(serviceValues(unit, 'ReadWritePaths')).toEqual([]);
  },
);

it('reloads only the host, the one server with something to re-read', () => {
  expect(Object.fromEntries(unitNames.map((unit) => [unit, serviceValues(unit, 'ExecReload')]))).toEqual({
    'gift-box-api@.service': [],
    'gift-box-host@.service': ['/bin/kill -HUP $MAINPID'],
    'gift-box-remote@.service': [],
  });
});

it.each(unitNames)('%s reads each secret from a credential through its <NAME>_FILE variable', (unit) => {
  const credentials = serviceValues(unit, 'LoadCredential').map((value) => value.split(':')[0] as string);
  const files = serviceValues(unit, 'Environment')
    .filter((value) => /^[A-Z_]+_FILE=/.test(value))
    .map((value) => value.split('='));
  // VISITOR_COOKIE_SECRETS_FILE=%d/visitor-cookie-secrets, for each credential and no other.
  expect(files.map(([, path]) => path)).toEqual(credentials.map((id) => `%d/${id}`));
  expect(files.map(([variable]) => variable)).toEqual(
    credentials.map((id) => `${id.toUpperCase().replace(/-/g, '_')}_FILE`),
  );
  // No secret itself in the unit, where `systemctl show` prints it.
  const direct = serviceValues(unit, 'Environment').filter((value) =>
    /^[A-Z_]*(SECRETS?|KEY|DATABASE_URL)=/.test(value),
  );
  expect(direct).toEqual([]);
});
