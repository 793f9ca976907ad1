/** The embedded driver started from a dump of another database (the tests' template, test-db.ts). */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { IN_MEMORY, openPglite } from './pglite-database';

it('opens a copy of the database a dump holds, whose writes leave the original alone', async () => {
  const original = await PGlite.create();
  try {
    await original.exec('CREATE TABLE kept (n int); INSERT INTO kept VALUES (1)');
    const copy = await openPglite(IN_MEMORY, { loadDataDir: await original.dumpDataDir('none') });
    try {
      expect(await copy.query('SELECT n FROM kept')).toEqual([{ n: 1 }]);
      await copy.exec('INSERT INTO kept VALUES (2)');
      expect(await copy.query('SELECT n FROM kept ORDER BY n')).toEqual([{ n: 1 }, { n: 2 }]);
    } finally {
      await copy.close();
    }
    expect((await original.query('SELECT n FROM kept')).rows).toEqual([{ n: 1 }]);
  } finally {
    await original.close();
  }
});

it('starts a new data folder from the initial data file, and opens one that holds a database as it is', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'api-pglite-initial-'));
  try {
    const original = await PGlite.create();
    await original.exec('CREATE TABLE kept (n int); INSERT INTO kept VALUES (1)');
    const initialData = join(folder, 'initial.tar');
    writeFileSync(initialData, Buffer.from(await (await original.dumpDataDir('none')).arrayBuffer()));
    await original.close();

    const dataDir = join(folder, 'data');
    const first = await openPglite(dataDir, { initialData });
    await first.exec('INSERT INTO kept VALUES (2)');
    await first.close();
    const reopened = await openPglite(dataDir, { initialData });
    try {
      expect(await reopened.query('SELECT n FROM kept ORDER BY n')).toEqual([{ n: 1 }, { n: 2 }]);
    } finally {
      await reopened.close();
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
