// For the projects whose tests do real work (databases, processes, webpack builds, deployments on
// disk), whose time follows the machine's load: the timeout only catches a test that hangs, as how
// fast the work goes is the benches' question. (testTimeout is a global option, which a project's
// config cannot set.)
jest.setTimeout(60_000);
