/**
 * The gate's browser: Debian's Chromium, headless, sandboxed, since a staged build's pages are a
 * team's code. Chromium refuses its sandbox to root, so as root it runs as GATE_CHROMIUM_USER.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPathOf } from 'shared/chromium';

export const DEFAULT_CHROMIUM_USER = 'nobody';

function idsOf(user: string): { uid: number; gid: number } {
  const read = (flag: string) => Number(execFileSync('id', [flag, user], { encoding: 'utf8' }).trim());
  try {
    return { uid: read('-u'), gid: read('-g') };
  } catch {
    throw new Error(`GATE_CHROMIUM_USER names no user on this machine: "${user}"`);
  }
}

const shellQuote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/** Playwright's inherited pipes survive the switch to `user`. */
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
