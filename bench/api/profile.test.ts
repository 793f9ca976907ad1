import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mainThreadProfile, placeOf, selfTimeByPlace, type CpuProfile } from './profile';

const frame = (url: string, functionName = 'f') => ({ url, functionName, lineNumber: 1 });

describe('placeOf', () => {
  it('names packages, our source folders, Node and V8', () => {
    expect(placeOf(frame('file:///app/node_modules/fastify/lib/route.js'))).toBe('fastify');
    expect(placeOf(frame('file:///app/node_modules/@fastify/cookie/plugin.js'))).toBe('@fastify/cookie');
    expect(placeOf(frame('file:///app/node_modules/a/node_modules/pino/pino.js'))).toBe('pino');
    expect(placeOf(frame('file:///app/api/src/http/request-log.ts'))).toBe('api/src/http');
    expect(placeOf(frame('file:///app/shared/src/api/contract.ts'))).toBe('shared/src/api');
    expect(placeOf(frame('node:internal/streams/writable'))).toBe('node:internal/streams');
    expect(placeOf(frame('node:_http_server'))).toBe('node:_http_server');
    expect(placeOf(frame('', '(garbage collector)'))).toBe('(garbage collector)');
    expect(placeOf(frame('', ''))).toBe('(anonymous native)');
  });
});

describe('selfTimeByPlace', () => {
  it('adds each sample to its place and leaves idle time out of the shares', () => {
    const profile: CpuProfile = {
      nodes: [
        { id: 1, callFrame: frame('', '(idle)') },
        { id: 2, callFrame: frame('file:///app/node_modules/fastify/fastify.js') },
        { id: 3, callFrame: frame('file:///app/node_modules/pino/pino.js') },
        { id: 4, callFrame: frame('file:///app/node_modules/fastify/lib/reply.js') },
      ],
      samples: [1, 2, 3, 4, 1],
      timeDeltas: [5000, 3000, 2000, 1000, 9000],
    };
    expect(selfTimeByPlace(profile)).toEqual({
      busyMs: 6,
      shares: [
        { place: 'fastify', share: 4 / 6 },
        { place: 'pino', share: 2 / 6 },
      ],
    });
  });
});

describe('mainThreadProfile', () => {
  it("picks the process's main thread's file, not a worker thread's nor another process's", () => {
    const dir = mkdtempSync(join(tmpdir(), 'profiles-'));
    try {
      for (const name of [
        'CPU.20261207.180635.2170.1.002.cpuprofile',
        'CPU.20261207.002170.99.0.001.cpuprofile',
        'CPU.20261207.180635.2170.0.001.cpuprofile',
      ])
        writeFileSync(join(dir, name), '{}');
      expect(mainThreadProfile(dir, 2170)).toBe(join(dir, 'CPU.20261207.180635.2170.0.001.cpuprofile'));
      expect(() => mainThreadProfile(dir, 4)).toThrow("no CPU profile of process 4's main thread");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
