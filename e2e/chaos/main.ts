/**
 * `npm run chaos [-- --minutes N] [-- --seed S]`: a chaos run (run.ts) on this machine's
 * loopback, ten minutes by default, on the built parts (`npm run build` first). Prints the fault
 * schedule, progress and the report; exits non-zero when anything acknowledged was lost or a
 * visitor saw an error outside a fault's window. Ports and folders are the browser suite's
 * (E2E_BASE_PORT, e2e/.e2e-tmp/).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT_DIR } from '../support/test-env';
import { runChaos } from './run';
import { FAULT_KINDS, type FaultKind } from './schedule';

const USAGE = 'usage: npm run chaos -- [--minutes N] [--seed S] [--rate N] [--browsers N] [--faults kind,kind…]';

function positive(name: string, raw: string | undefined, fallback: number, integer = true): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value)))
    throw new Error(`--${name} must be a positive ${integer ? 'whole ' : ''}number, got "${raw}"\n${USAGE}`);
  return value;
}

function kinds(raw: string | undefined): FaultKind[] | undefined {
  if (raw === undefined) return undefined;
  const list = raw.split(',').map((kind) => kind.trim());
  const unknown = list.filter((kind) => !(FAULT_KINDS as readonly string[]).includes(kind));
  if (unknown.length > 0)
    throw new Error(`unknown fault kinds ${unknown.join(', ')}; known: ${FAULT_KINDS.join(', ')}`);
  return list as FaultKind[];
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      minutes: { type: 'string' },
      seed: { type: 'string' },
      rate: { type: 'string' },
      browsers: { type: 'string' },
      faults: { type: 'string' },
    },
  });
  const missing = ['api/dist/index.js', 'host/dist-server/main.js', 'remote-content/dist/mf-manifest.json'].filter(
    (file) => !existsSync(join(ROOT_DIR, file)),
  );
  if (missing.length > 0) throw new Error(`${missing.join(', ')} missing: run npm run build first`);
  const report = await runChaos({
    minutes: positive('minutes', values.minutes, 10, false),
    seed: values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : positive('seed', values.seed, 1),
    journeysPerSecond: positive('rate', values.rate, 4, false),
    browsers: values.browsers === '0' ? 0 : positive('browsers', values.browsers, 2),
    kinds: kinds(values.faults),
  });
  console.log(`\n${report.text}`);
  return report.failures.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(error.message);
    process.exit(2);
  },
);
