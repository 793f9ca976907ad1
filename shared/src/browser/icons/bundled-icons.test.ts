import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { appIconNames } from '../../../scripts/app-icon-names';
import { bundledIconNames, isBundledIcon } from './bundled-icons';
import { UI_ICONS } from './icon-names';

const FIX = 'Run `npm run icons -w shared` and commit src/icons/bundled-icons.json.';

describe('the bundled icons', () => {
  it('hold every icon the interface and the prize catalogue use, and nothing else', () => {
    const names = appIconNames();
    expect(names).toEqual(expect.arrayContaining(Object.values(UI_ICONS)));
    expect(names).toContain('mdi:coffee');
    const missing = names.filter((name) => !isBundledIcon(name));
    const extra = bundledIconNames().filter((name) => !names.includes(name));
    if (missing.length > 0 || extra.length > 0) {
      throw new Error(
        `bundled-icons.json is stale: missing ${missing.join(', ') || 'none'}; not used ${extra.join(', ') || 'none'}. ${FIX}`,
      );
    }
  });

  it('are exactly what the script generates from the installed icon sets', () => {
    // The script runs in Node, where the icon tools (ES modules only) load as they do for `npm run icons`.
    const check = spawnSync(
      process.execPath,
      [require.resolve('tsx/cli'), join(__dirname, '../../../scripts/bundle-icons.ts'), '--check'],
      {
        encoding: 'utf8',
        timeout: 30_000,
      },
    );
    if (check.status !== 0) throw new Error(`${check.stderr || check.stdout || check.error}\n${FIX}`);
    expect(check.stdout).toContain('is up to date');
  });
});
