// The scripts project's tests run webpack builds, publish and roll back builds on disk and start
// processes: real work whose time follows the machine's load (a 22-build deployment history takes
// 1.4 s on a quiet two-core machine and more than 5 s, jest's default, beside a busy one). Here
// the timeout only catches a test that hangs: how fast these commands are is the benches' question.
// (testTimeout is a global option, which a project's config cannot set.)
jest.setTimeout(60_000);
