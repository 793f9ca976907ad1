import { createRequestActivity } from './activity';

describe('createRequestActivity', () => {
  it('counts requests in flight and tells subscribers of each change', () => {
    const activity = createRequestActivity();
    const seen: number[] = [];
    activity.subscribe(() => seen.push(activity.pending()));

    const first = activity.begin();
    const second = activity.begin();
    first();
    second();

    expect(seen).toStrictEqual([1, 2, 1, 0]);
    expect(activity.pending()).toBe(0);
  });

  it('ignores a second end of the same request', () => {
    const activity = createRequestActivity();
    const end = activity.begin();
    activity.begin();
    end();
    end();
    expect(activity.pending()).toBe(1);
  });

  it('stops telling a listener once it unsubscribes', () => {
    const activity = createRequestActivity();
    const listener = jest.fn();
    const unsubscribe = activity.subscribe(listener);
    activity.begin();
    unsubscribe();
    activity.begin();
    expect(listener).toHaveBeenCalledTimes(1);
  });
});
