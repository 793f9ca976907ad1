import '@testing-library/jest-dom';

// jsdom has no layout, so no scrolling; the router's scroll restoration calls it.
window.scrollTo = () => undefined;
