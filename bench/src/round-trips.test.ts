import { chainDepths, serialRoundTrips, type TimedRequest } from './round-trips';

const PAGE = 'http://host.test/game';

function request(
  id: string,
  kind: TimedRequest['kind'],
  sentAt: number,
  finishedAt: number | undefined,
  initiatorUrls: string[] = [],
): TimedRequest {
  return { id, url: `http://host.test/${id}`, kind, sentAt, finishedAt, initiatorUrls };
}

describe('chainDepths', () => {
  it('follows the parser and the scripts on the initiator stack', () => {
    const requests = [
      { ...request('doc', 'document', 0, 200), url: PAGE },
      request('main.js', 'script', 100, 400, [PAGE]),
      request('bootstrap.js', 'script', 500, 800, ['http://host.test/main.js']),
      request('page.js', 'script', 900, 1200, ['http://host.test/main.js', 'http://host.test/bootstrap.js']),
    ];
    expect(Object.fromEntries(chainDepths(requests))).toEqual({
      doc: 1,
      'main.js': 2,
      'bootstrap.js': 3,
      'page.js': 4,
    });
  });

  it('counts an initiator that was still loading (a streaming document), but not one sent later', () => {
    const requests = [
      { ...request('doc', 'document', 0, 900), url: PAGE },
      request('early.js', 'script', 100, 300, [PAGE]),
      request('late.js', 'script', 50, 200, ['http://host.test/early.js']),
    ];
    expect(chainDepths(requests).get('early.js')).toBe(2);
    expect(chainDepths(requests).get('late.js')).toBe(1);
  });

  it('takes a data request that had finished as awaited, whoever initiated it', () => {
    const requests = [
      request('main.js', 'script', 0, 100),
      request('config.json', 'data', 150, 400, ['http://host.test/main.js']),
      request('manifest.json', 'data', 450, 700, ['http://host.test/main.js']),
      request('remoteEntry.js', 'script', 750, 900, ['http://host.test/main.js']),
    ];
    expect(chainDepths(requests).get('remoteEntry.js')).toBe(4);
  });

  it('does not chain a script that merely finished earlier and is not on the stack', () => {
    const requests = [
      request('main.js', 'script', 0, 100),
      request('other.js', 'script', 150, 300, ['http://host.test/main.js']),
      request('chunk.js', 'script', 400, 500, ['http://host.test/main.js']),
    ];
    expect(chainDepths(requests).get('chunk.js')).toBe(2);
  });

  it('does not take a data request that was still loading as awaited', () => {
    const requests = [
      request('main.js', 'script', 0, 100),
      request('api', 'data', 150, 900, ['http://host.test/main.js']),
      request('chunk.js', 'script', 400, 500, ['http://host.test/main.js']),
    ];
    expect(chainDepths(requests).get('chunk.js')).toBe(2);
  });
});

describe('serialRoundTrips', () => {
  const requests = [
    { ...request('doc', 'document', 0, 200), url: PAGE },
    request('main.js', 'script', 100, 400, [PAGE]),
    request('payload.json', 'data', 500, 800, ['http://host.test/main.js']),
    request('later.js', 'script', 900, 1100, ['http://host.test/main.js']),
  ];

  it('is the deepest chain among the requests finished by then', () => {
    expect(serialRoundTrips(requests, 850)).toBe(3);
  });

  it('leaves out requests still loading at that moment', () => {
    expect(serialRoundTrips(requests, 300)).toBe(1);
    expect(serialRoundTrips([request('slow', 'data', 0, undefined)], 1000)).toBe(0);
  });
});
