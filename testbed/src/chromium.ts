/**
 * Chromium as the browser tests, the bench and the scripts run it (shared/chromium's path and
 * flags), without its sandbox: they run as root, where Chromium refuses it.
 */
import { CHROMIUM_ARGS as HEADLESS_ARGS, chromiumPathOf } from 'shared/chromium';

export { DEFAULT_CHROMIUM_PATH, reactDevtoolsHook } from 'shared/chromium';

/**
 * The full browser, which visitors run: the bench's figures, the gate and the staging traffic.
 * CHROMIUM_PATH, else Debian's; a name it replaced, set, stops the run here, naming it.
 */
export const CHROMIUM_PATH = chromiumPathOf(process.env);

/** Debian's package `chromium-headless-shell`. */
export const HEADLESS_SHELL_PATH = '/usr/bin/chromium-headless-shell';

/**
 * What the tests drive: CHROMIUM_PATH when set, else the headless shell, the same Chromium (Blink,
 * V8, its network stack) built for headless use only, as @playwright/test runs headless tests by
 * default: on it the browser takes less than half the CPU
 * (docs/decisions/0023-browser-suite-on-playwright-test.md).
 */
export const TEST_CHROMIUM_PATH = chromiumPathOf(process.env, HEADLESS_SHELL_PATH);

export const CHROMIUM_ARGS: readonly string[] = ['--no-sandbox', ...HEADLESS_ARGS];
