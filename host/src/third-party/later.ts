/**
 * What the third parties run only after the first page (third-parties.ts), in a chunk of its own
 * with the consent banner (consent-banner-slot.tsx), which opens once analytics has started:
 * analytics and the tag manager, and live chat's loader. None of it is in the page's first script.
 */
export { startAnalytics } from './analytics/start-analytics';
export { startChat } from './chat/start-chat';
