import '@testing-library/jest-dom';

// jsdom has no layout, so no scrolling; the router's scroll restoration calls it.
if (typeof window !== 'undefined') window.scrollTo = () => undefined;
