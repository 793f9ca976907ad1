/**
 * Section 1: saturation throughput of GET gift, as ratios to bare Fastify, with CPU per request.
 * A ratio is quoted only from rounds the machine was otherwise quiet in: under other processes'
 * load the bare server loses more to contention than the API does, so a busy machine flatters the
 * API (0.55-0.79× busy against 0.31-0.34× quiet, for the same code).
 */
import { backendCpuSeconds, processCpuSeconds } from './cpu';
import { type MeasureLoad, ratioLine } from './quiet';
import { send } from './http';
import { type Saturation, saturate } from './load';
import { median } from 'testbed/stats';
import { heading, note, ratio, rotate, rps, table } from './report';
import { type Settings, type Target, TARGETS } from './target';

/** Log lines and bytes one GET gift writes (sequential requests). */
async function logCost(target: Target, requests: number): Promise<string> {
  const output = target.server.output;
  const [lines, bytes] = [output.lines(), output.bytes()];
  for (let i = 0; i < requests; i += 1) await send(target.server.baseUrl, target.giftPath);
  await new Promise((resolve) => setTimeout(resolve, 200));
  return `${((output.lines() - lines) / requests).toFixed(1)} lines, ${((output.bytes() - bytes) / requests).toFixed(0)} bytes`;
}

interface Measured extends Saturation {
  /** CPU µs per answered request: the server process, and the database backends it used. */
  serverCpu: number;
  backendCpu: number;
}

/** A warm-up, then a measured saturation run with the CPU the server (and its backends) used. */
async function measure(target: Target, settings: Settings): Promise<Measured> {
  const url = `${target.server.baseUrl}${target.giftPath}`;
  await saturate(url, { connections: settings.connections, seconds: settings.warmupSeconds });
  const backend = () => (target.database ? backendCpuSeconds(target.database) : 0);
  const [server0, backend0] = [processCpuSeconds(target.server.pid), backend()];
  const result = await saturate(url, { connections: settings.connections, seconds: settings.saturationSeconds });
  const perRequest = (seconds: number) => (seconds * 1e6) / Math.max(1, result.completed);
  return {
    ...result,
    serverCpu: perRequest(processCpuSeconds(target.server.pid) - server0),
    backendCpu: perRequest(backend() - backend0),
  };
}

export async function throughput(
  bare: Target,
  apis: readonly [Target, Target],
  settings: Settings,
  measureLoad: MeasureLoad,
): Promise<void> {
  const targets = [bare, ...apis];
  heading(
    `1. Saturation throughput, GET /api/gifts/:giftId: ${settings.connections} connections, ${settings.saturationSeconds} s after a ${settings.warmupSeconds} s warm-up, ` +
      `${settings.rounds} interleaved rounds (${targets.map((target) => target.label).join(' → ')}, each round starting one further)`,
  );
  const sizes = await Promise.all(
    targets.map(
      async (target) => `${target.label} ${(await send(target.server.baseUrl, target.giftPath)).text.length} B`,
    ),
  );
  note(`answer bodies: ${sizes.join(', ')}`);
  for (const api of apis)
    note(
      `log output per GET on ${api.label} (LOG_LEVEL=info, stdout to a pipe the bench drains): ${await logCost(api, 200)}`,
    );

  const ratios: number[][] = apis.map(() => []);
  const cpu = new Map<string, { server: number[]; backend: number[] }>(
    targets.map((target) => [target.label, { server: [], backend: [] }]),
  );
  const rows: string[][] = [];
  const others: (number | undefined)[] = [];
  for (let round = 1; round <= settings.rounds; round += 1) {
    const results = new Map<string, Measured>();
    const load = measureLoad();
    for (const target of rotate(targets, round - 1)) {
      const result = await measure(target, settings);
      results.set(target.label, result);
      cpu.get(target.label)?.server.push(result.serverCpu);
      cpu.get(target.label)?.backend.push(result.backendCpu);
    }
    const use = load?.();
    const base = results.get(bare.label);
    if (!base) continue;
    others.push(use?.others);
    const row = [String(round), rps(base.rps)];
    apis.forEach((api, index) => {
      const result = results.get(api.label);
      if (!result) return;
      ratios[index]?.push(result.rps / base.rps);
      row.push(rps(result.rps), ratio(result.rps / base.rps));
    });
    const failures = String([...results.values()].reduce((sum, result) => sum + result.failures, 0));
    rows.push([...row, failures, use ? use.others.toFixed(2) : 'n/a']);
  }
  console.log(
    table(
      [
        'round',
        `${bare.label} req/s`,
        ...apis.flatMap((api) => [`${api.label} req/s`, '×bare']),
        'non-2xx/errors',
        'other processes, cores',
      ],
      rows,
    ),
  );
  note(ratioLine(apis[0].label, ratios[0] ?? [], others, TARGETS.pgliteRatio));
  note(ratioLine(apis[1].label, ratios[1] ?? [], others, TARGETS.postgresRatio));
  const cpuText = targets.map((target) => {
    const used = cpu.get(target.label);
    const backend = target.database ? ` + ${(median(used?.backend ?? []) ?? Number.NaN).toFixed(0)} in PostgreSQL` : '';
    return `${target.label} ${(median(used?.server ?? []) ?? Number.NaN).toFixed(0)}${backend}`;
  });
  note(
    `CPU per request, µs (median of the rounds; less sensitive to the machine's other load than req/s): ${cpuText.join(', ')}`,
  );
}
