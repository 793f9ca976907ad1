/**
 * Writes src/browser/icons/bundled-icons.json from the interface's icon names and the API's catalogue.
 * `--check` writes nothing and fails when the committed file differs from what it would write.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { appIconNames } from './app-icon-names';
import { buildIconBundle, BUNDLE_FILE, REGENERATE, serialiseBundle } from './icon-bundle';

function readCommitted(): string {
  try {
    return readFileSync(BUNDLE_FILE, 'utf8');
  } catch {
    return '';
  }
}

function main(check: boolean): void {
  const names = appIconNames();
  const text = serialiseBundle(buildIconBundle(names));
  const file = relative(process.cwd(), BUNDLE_FILE);
  if (check) {
    if (readCommitted() !== text) {
      console.error(`${file} is out of date with the app's icons (${names.join(', ')}). Run: ${REGENERATE}`);
      process.exitCode = 1;
      return;
    }
    console.log(`${file} is up to date (${names.length} icons)`);
    return;
  }
  writeFileSync(BUNDLE_FILE, text);
  console.log(`Wrote ${file}: ${names.length} icons (${names.join(', ')}), ${Buffer.byteLength(text)} bytes`);
}

try {
  main(process.argv.includes('--check'));
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
}
