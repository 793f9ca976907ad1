// PGlite starts in about 2 s; the process tests start servers. (testTimeout is a global option,
// which a project's config cannot set.)
jest.setTimeout(60_000);
