/**
 * Debian's chromium and the one list of flags it needs here (no sandbox as root, no GPU, no
 * background traffic), for the browser tests and the bench alike; a caller that needs more adds
 * its own after these.
 */
export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';
/** The browser tests' binary: E2E_CHROMIUM_PATH, else Debian's. */
export const CHROMIUM_PATH = process.env.E2E_CHROMIUM_PATH || DEFAULT_CHROMIUM_PATH;

export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
