/**
 * Chromium as the browser tests, the bench and the scripts run it (shared/chromium's path and
 * flags), without its sandbox: they run as root, where Chromium refuses it.
 */
import { CHROMIUM_ARGS as HEADLESS_ARGS, chromiumPathOf } from 'shared/chromium';

export { DEFAULT_CHROMIUM_PATH, reactDevtoolsHook } from 'shared/chromium';

/** CHROMIUM_PATH, else Debian's; a name it replaced, set, stops the run here, naming it. */
export const CHROMIUM_PATH = chromiumPathOf(process.env);

export const CHROMIUM_ARGS: readonly string[] = ['--no-sandbox', ...HEADLESS_ARGS];
