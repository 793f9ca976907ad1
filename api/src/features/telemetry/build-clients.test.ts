import { CLIENT_WINDOW_MS } from 'shared/telemetry';
import { BuildClients } from './build-clients';

function recorder(max?: number) {
  const counted: string[] = [];
  const warnings: string[] = [];
  const clients = new BuildClients(
    { buildClients: { inc: (labels) => void counted.push(`${labels.remote}/${labels.build}/${labels.signal}`) } },
    { warn: (_details, message) => void warnings.push(message) },
    max,
  );
  return { clients, counted, warnings };
}

describe('distinct clients of a build', () => {
  it('counts a client once, and again only a whole window after it was last counted', () => {
    const { clients, counted } = recorder();
    clients.count('a', 'gifts', 'g1', 'failed', 1_000);
    clients.count('a', 'gifts', 'g1', 'failed', 1_000 + CLIENT_WINDOW_MS - 1);
    clients.count('b', 'gifts', 'g1', 'failed', 2_000);
    clients.count('a', 'gifts', 'g1', 'load', 2_000);
    expect(counted).toEqual(['gifts/g1/failed', 'gifts/g1/failed', 'gifts/g1/load']);
    // However the windows of a query fall, one client is one count within one window's length.
    clients.count('a', 'gifts', 'g1', 'failed', 1_000 + CLIENT_WINDOW_MS);
    expect(counted).toHaveLength(4);
  });

  it('counts no client of a build without a label', () => {
    const { clients, counted } = recorder();
    clients.count('a', 'gifts', 'other', 'failed', 0);
    clients.count('a', 'gifts', 'unknown', 'load', 0);
    expect(counted).toEqual([]);
  });

  it('makes room by forgetting the clients counted longest ago, and says once when it has none', () => {
    const { clients, counted, warnings } = recorder(2);
    clients.count('a', 'gifts', 'g1', 'load', 0);
    clients.count('b', 'gifts', 'g1', 'load', 1);
    clients.count('c', 'gifts', 'g1', 'load', 2);
    clients.count('d', 'gifts', 'g1', 'load', 3);
    expect([counted.length, warnings]).toEqual([
      2,
      ['telemetry: the table of clients is full; new clients are not counted'],
    ]);
    clients.count('c', 'gifts', 'g1', 'load', CLIENT_WINDOW_MS);
    expect(counted).toHaveLength(3);
  });
});
