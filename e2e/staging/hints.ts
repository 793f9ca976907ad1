/**
 * What `npm run staging` prints once everything answers, and what it writes to
 * `<folder>/staging.json` for `sample` and `traffic`: every URL, each remote's deploy folder, and
 * the release, gate and canary commands as they work against this staging.
 */
import { relative } from 'node:path';
import { REMOTES, type RemoteName } from 'shared/remotes';
import { DEFAULT_DIR } from './options';
import { pathArgs, type SampleIds } from './sample';

export interface StagingInfo {
  dir: string;
  /** The site: nginx, the one origin visitors use. */
  origin: string;
  /** The host's server itself, behind nginx. */
  hostServer: string;
  /** Each API process itself, behind nginx. */
  apis: string[];
  prometheus: string;
  database: string;
  /** Each remote's deploy folder. */
  remotes: Record<RemoteName, string>;
  /** The file holding each remote's preview key (REMOTE_<NAME>_PREVIEW_KEY on the host's server). */
  previewKeys: Record<RemoteName, string>;
  logs: string;
}

export const STAGING_FILE = 'staging.json';

/** A path as typed from `cwd`: relative when it lies below it. */
function shown(path: string, cwd: string): string {
  const from = relative(cwd, path);
  return from && !from.startsWith('..') ? from : path;
}

/** The commands a remote team runs against this staging, `<build id>` and `<build folder>` theirs to fill. */
export function remoteCommands(info: StagingInfo, remote: RemoteName, ids: SampleIds, cwd: string): string[] {
  const pkg = REMOTES[remote].packageDir;
  const folder = shown(info.remotes[remote], cwd);
  const key = `PREVIEW_KEY="$(cat ${shown(info.previewKeys[remote], cwd)})"`;
  const paths = pathArgs(remote, ids);
  const pad = (label: string) => `    ${label.padEnd(9)}`;
  return [
    `  ${remote} (deploy folder ${folder}):`,
    `${pad('stage')}npm run deploy -w ${pkg} -- ${folder} --stage [--from <build folder>]`,
    `${pad('gate')}${key} npm run gate -w ${pkg} -- ${folder} <build id> --host ${info.origin}${paths}`,
    `${pad('release')}${key} npm run release -w ${pkg} -- ${folder} --host ${info.origin} --prometheus ${info.prometheus}${paths} [--from <build folder> | --build <build id>]`,
    `${pad('canary')}npm run canary -w ${pkg} -- ${folder} status | promote | abort --reason "…"`,
    `${pad('')}(a bare "canary start <build id> --percent 10" is judged by nobody: prefer release)`,
    `${pad('rollback')}npm run rollback -w ${pkg} -- ${folder}`,
  ];
}

/** `npm run staging -- sample`, with `--dir` unless the folder is the default one seen from `cwd`. */
export function sampleCommand(info: StagingInfo, cwd: string): string {
  const dir = shown(info.dir, cwd);
  return `npm run staging -- sample${dir === DEFAULT_DIR ? '' : ` --dir ${dir}`}`;
}

/** Everything staging prints once it is up. */
export function describeStaging(info: StagingInfo, ids: SampleIds, cwd: string): string[] {
  const row = (label: string, value: string) => `  ${label.padEnd(16)} ${value}`;
  const remotes = Object.keys(info.remotes) as RemoteName[];
  const samples = remotes.map((remote) => pathArgs(remote, ids).trim()).filter(Boolean);
  return [
    'staging: up; Ctrl-C stops every process it started',
    row('site (nginx)', info.origin),
    row("host's server", `${info.hostServer}/healthz`),
    ...info.apis.map((api, index) => row(`API process ${index + 1}`, `${api}/api/health/ready`)),
    row('Prometheus', `${info.prometheus} (targets: ${info.prometheus}/targets, alerts: ${info.prometheus}/alerts)`),
    row('PostgreSQL', info.database),
    row('logs', shown(info.logs, cwd)),
    '',
    `a sample gift and redeem session for the gate (another: ${sampleCommand(info, cwd)}):`,
    ...samples.map((sample) => `  ${sample}`),
    '',
    `visitors: npm run traffic -- --url ${info.origin} --rate 30`,
    '',
    'each remote:',
    ...remotes.flatMap((remote) => remoteCommands(info, remote, ids, cwd)),
  ];
}
