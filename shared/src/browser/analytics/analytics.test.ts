import { BUFFER_LIMIT, createAnalytics, type AnalyticsHit, type ProductEvent } from './analytics';

const viewed: ProductEvent = { name: 'Gift Viewed', properties: { prizeId: 'cinema', status: 'available' } };

function collecting() {
  const hits: AnalyticsHit[] = [];
  return { hits, sink: (hit: AnalyticsHit) => void hits.push(hit) };
}

let clock = 1_000;
const now = () => clock;

beforeEach(() => {
  clock = 1_000;
});

afterEach(() => jest.restoreAllMocks());

describe('analytics before a sink is connected', () => {
  it('keeps calls, with the time they were made, and hands them over in order on connect', () => {
    const analytics = createAnalytics(now);
    analytics.pageView({ route: '/gifts/:giftId' });
    clock = 2_000;
    analytics.track(viewed);
    const { hits, sink } = collecting();

    analytics.connect(sink);

    expect(hits).toEqual([
      { type: 'page', view: { route: '/gifts/:giftId' }, at: 1_000 },
      { type: 'event', event: viewed, at: 2_000 },
    ]);
  });

  it(`keeps at most ${BUFFER_LIMIT} calls, dropping the oldest`, () => {
    const analytics = createAnalytics(now);
    for (let n = 0; n < BUFFER_LIMIT + 5; n += 1) analytics.pageView({ route: `/page-${n}` });
    const { hits, sink } = collecting();

    analytics.connect(sink);

    expect(hits).toHaveLength(BUFFER_LIMIT);
    expect(hits[0]).toMatchObject({ view: { route: '/page-5' } });
    expect(hits.at(-1)).toMatchObject({ view: { route: `/page-${BUFFER_LIMIT + 4}` } });
  });

  it('does not hand the buffer over twice', () => {
    const analytics = createAnalytics(now);
    analytics.track(viewed);
    const first = collecting();
    const second = collecting();

    analytics.connect(first.sink);
    analytics.connect(second.sink);

    expect(first.hits).toHaveLength(1);
    expect(second.hits).toEqual([]);
  });
});

describe('analytics with a sink', () => {
  it('sends each further call straight to it', () => {
    const analytics = createAnalytics(now);
    const { hits, sink } = collecting();
    analytics.connect(sink);

    analytics.track({ name: 'Game Played', properties: { outcome: 'win', prizeId: 'cinema' } });
    analytics.track({ name: 'Redeem Started', properties: { prizeId: 'cinema' } });

    expect(hits.map((hit) => hit.type === 'event' && hit.event.name)).toEqual(['Game Played', 'Redeem Started']);
  });

  it('buffers again once disconnected', () => {
    const analytics = createAnalytics(now);
    const first = collecting();
    const disconnect = analytics.connect(first.sink);
    disconnect();
    analytics.track(viewed);
    expect(first.hits).toEqual([]);

    const second = collecting();
    analytics.connect(second.sink);
    expect(second.hits).toHaveLength(1);
  });

  it('logs a sink that throws, and the caller carries on', () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const analytics = createAnalytics(now);
    analytics.track(viewed);
    const failure = new Error('the library is broken');

    expect(() =>
      analytics.connect(() => {
        throw failure;
      }),
    ).not.toThrow();
    expect(() => analytics.pageView({ route: '/' })).not.toThrow();

    expect(warn).toHaveBeenCalledTimes(2);
    expect(warn).toHaveBeenCalledWith('[analytics] a hit could not be sent', failure);
  });
});

describe('analytics disabled', () => {
  it('drops the buffer and ignores calls', () => {
    const analytics = createAnalytics(now);
    analytics.track(viewed);
    analytics.disable();
    analytics.pageView({ route: '/' });
    const { hits, sink } = collecting();

    analytics.connect(sink);

    expect(hits).toEqual([]);
  });

  it('stops sending to a connected sink', () => {
    const analytics = createAnalytics(now);
    const { hits, sink } = collecting();
    analytics.connect(sink);
    analytics.disable();

    analytics.track(viewed);

    expect(hits).toEqual([]);
  });

  it('sends again after a later connect (consent given after all)', () => {
    const analytics = createAnalytics(now);
    analytics.disable();
    const { hits, sink } = collecting();
    analytics.connect(sink);

    analytics.track(viewed);

    expect(hits).toHaveLength(1);
  });
});

describe('personal data', () => {
  const GIFT_ID = 'Zx9_-aBcDeFgHiJkLmNoPqRs';

  it.each([
    ['an email address', 'jane@example.com'],
    ['a voucher code', '7KQ4-M2XD-9HTR-B3WF-QZ6C-P08N-4VYE'],
    ['a gift or redeem id', GIFT_ID],
  ])('refuses an event that holds %s, with a warning', (what, value) => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const analytics = createAnalytics(now);
    const { hits, sink } = collecting();
    analytics.connect(sink);

    // A prize id is any string to the types; a mix-up in a remote is caught here.
    analytics.track({ name: 'Redeem Completed', properties: { prizeId: value } });

    expect(hits).toEqual([]);
    expect(warn).toHaveBeenCalledWith(`[analytics] not sent: "Redeem Completed" holds ${what}`);
  });

  it('refuses a page view of a concrete address instead of a route pattern', () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const analytics = createAnalytics(now);
    const { hits, sink } = collecting();
    analytics.connect(sink);

    analytics.pageView({ route: `/gifts/${GIFT_ID}` });
    analytics.pageView({ route: '/gifts/:giftId' });

    expect(hits.map((hit) => hit.type === 'page' && hit.view.route)).toEqual(['/gifts/:giftId']);
    expect(warn).toHaveBeenCalledWith('[analytics] not sent: the page view holds a gift or redeem id');
  });

  it('lets catalogue prize ids through', () => {
    const analytics = createAnalytics(now);
    const { hits, sink } = collecting();
    analytics.connect(sink);

    analytics.track({
      name: 'Gift Viewed',
      properties: { prizeId: 'coffee-voucher-2030-limited', status: 'redeemed' },
    });

    expect(hits).toHaveLength(1);
  });
});
