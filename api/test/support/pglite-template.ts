/**
 * The run's folder for the initialised PGlite database the test files start theirs from
 * (test-db.ts): made by the global setup, named to the test workers in this variable, removed by
 * the global teardown. Without it each test database is made anew.
 */
export const PGLITE_TEMPLATE_DIR_ENV = 'API_TEST_PGLITE_TEMPLATE_DIR';
