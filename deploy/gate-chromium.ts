/**
 * The gate's browser: Debian's Chromium, headless, with its sandbox. The gate opens the production
 * host, and a staged build's pages are code a remote team published: the sandbox is what keeps a
 * page that exploits the renderer inside it. Chromium refuses its sandbox to root, so a gate run
 * as root starts Chromium as an unprivileged user (GATE_CHROMIUM_USER, `nobody` by default)
 * through util-linux's setpriv, with no capabilities and a profile that user owns; run as anyone
 * else, it starts Chromium as that user.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPathOf } from 'shared/chromium';

/** Who Chromium runs as when the gate runs as root. */
export const DEFAULT_CHROMIUM_USER = 'nobody';

/** The numeric user and group of `user`, from the system's own database. */
function idsOf(user: string): { uid: number; gid: number } {
  const read = (flag: string) => Number(execFileSync('id', [flag, user], { encoding: 'utf8' }).trim());
  try {
    return { uid: read('-u'), gid: read('-g') };
  } catch {
    throw new Error(`GATE_CHROMIUM_USER names no user on this machine: "${user}"`);
  }
}

const shellQuote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/**
 * An executable that starts `chromium` as `user`: it hands the profile playwright made (root's)
 * to that user, then drops to it. Playwright talks to Chromium over inherited pipes, which
 * survive the switch.
 */
function writeLauncher(chromiumPath: string, user: string): { path: string; remove: () => void } {
  const { uid, gid } = idsOf(user);
  if (uid === 0) throw new Error(`GATE_CHROMIUM_USER must not be root ("${user}"): Chromium keeps no sandbox as root`);
  const dir = mkdtempSync(join(tmpdir(), 'gate-chromium-'));
  const path = join(dir, 'chromium');
  writeFileSync(
    path,
    [
      '#!/bin/sh',
      'set -e',
      'for arg in "$@"; do',
      `  case "$arg" in --user-data-dir=*) profile="\${arg#--user-data-dir=}"; chown -R ${uid}:${gid} "$profile";; esac`,
      'done',
      'export HOME="${profile:-/nonexistent}"',
      `exec setpriv --reuid=${uid} --regid=${gid} --clear-groups --inh-caps=-all -- ${shellQuote(chromiumPath)} "$@"`,
      '',
    ].join('\n'),
  );
  chmodSync(path, 0o700);
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Debian's Chromium (or `path`, or CHROMIUM_PATH's), headless and sandboxed, for the gate's pages. */
export async function launchChromium(path?: string): Promise<Browser> {
  const chromiumPath = path ?? chromiumPathOf(process.env);
  const asRoot = process.getuid?.() === 0;
  const launcher = asRoot
    ? writeLauncher(chromiumPath, process.env.GATE_CHROMIUM_USER || DEFAULT_CHROMIUM_USER)
    : undefined;
  try {
    const browser = await chromium.launch({
      executablePath: launcher?.path ?? chromiumPath,
      headless: true,
      chromiumSandbox: true,
      args: [...CHROMIUM_ARGS],
      // The caller stops the gate through `signal`: playwright's own handlers would end the process.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    browser.on('disconnected', () => launcher?.remove());
    return browser;
  } catch (error) {
    launcher?.remove();
    throw error;
  }
}
