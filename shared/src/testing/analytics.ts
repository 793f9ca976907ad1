/**
 * Test helper (`shared/testing/analytics`): records what reaches the analytics facade, afresh
 * for each test of the file that calls it.
 */
import { analytics, type ProductEvent } from '../browser/analytics/analytics';

export interface RecordedAnalytics {
  events: ProductEvent[];
  /** The route of each page view. */
  routes: string[];
}

export function recordAnalytics(): RecordedAnalytics {
  const recorded: RecordedAnalytics = { events: [], routes: [] };
  beforeEach(() => {
    recorded.events.length = 0;
    recorded.routes.length = 0;
    // Whatever earlier tests left in the buffer is dropped, not handed over.
    analytics.disable();
    analytics.connect((hit) => {
      if (hit.type === 'event') recorded.events.push(hit.event);
      else recorded.routes.push(hit.view.route);
    });
  });
  afterAll(() => analytics.disable());
  return recorded;
}
