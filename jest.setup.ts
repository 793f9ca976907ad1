import '@testing-library/jest-dom';

// jsdom has no layout, so no scrolling; the router's scroll restoration calls it.
if (typeof window !== 'undefined') window.scrollTo = () => undefined;

// Each test is a new tab: nothing a page kept for the tab (a play in progress) leaks into the next.
if (typeof window !== 'undefined') afterEach(() => window.sessionStorage.clear());
if (typeof window !== 'undefined') afterEach(() => window.localStorage.clear());
