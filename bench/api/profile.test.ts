import { placeOf, selfTimeByPlace, type CpuProfile } from './profile';

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
