/** `src/index.ts` as deployed: refuses bad configuration, keeps PGlite data across a restart. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PlayResult } from 'shared/api/contract';
import { loadCatalogue } from '../src/catalogue/catalogue';
import { API_ROOT } from '../src/config';
import { openPglite } from '../src/db/pglite-database';
import { type LaunchedApi, launchApi, runToExit, startApi, untilHealthy } from './support/api-process';
import { freePort } from 'testbed/free-port';
import { createTestDatabase, startCluster } from 'testbed/postgres';

let folder: string;

/** Resolves once the launched server has said `text`; rejects if it exits first. */
function untilSaid({ started, output }: LaunchedApi, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!output().includes(text)) return;
      started.child.stdout?.off('data', check);
      started.child.stderr?.off('data', check);
      resolve();
    };
    started.child.stdout?.on('data', check);
    started.child.stderr?.on('data', check);
    check();
    void started.exited.then((code) => reject(new Error(`exited (${code}) before saying "${text}":\n${output()}`)));
  });
}

async function playOnce(baseUrl: string): Promise<Extract<PlayResult, { outcome: 'win' }>> {
  const response = await fetch(`${baseUrl}/api/game/plays`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  const won = (await response.json()) as PlayResult;
  if (won.outcome !== 'win') throw new Error(`expected a win, got ${JSON.stringify(won)}`);
  return won;
}

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'api-start-up-'));
});
afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});

it('refuses to start with bad configuration, naming every bad variable', async () => {
  const { code, output } = await runToExit({
    GAME_WIN_RATE: '2',
    PLAYS_PER_IP_PER_DAY: 'lots',
    DATABASE_URL: 'mysql://db/gifts',
  });
  expect(code).toBe(1);
  expect(output).toContain('GAME_WIN_RATE must be a number from 0 to 1, got "2"');
  expect(output).toContain('PLAYS_PER_IP_PER_DAY must be a positive whole number, got "lots"');
  expect(output).toContain('DATABASE_URL must be a PostgreSQL URL');
});

it('refuses to start with an invalid prize catalogue, naming the file', async () => {
  const database = await createTestDatabase();
  const file = join(folder, 'bad-catalogue.json');
  writeFileSync(file, JSON.stringify({ prizes: [{ id: 'Coffee!', name: 'Coffee' }] }));
  try {
    const { code, output } = await runToExit({ DATABASE_URL: database.url, PRIZE_CATALOGUE_FILE: file });
    expect(code).toBe(1);
    expect(output).toContain(
      `The prize catalogue ${file} (PRIZE_CATALOGUE_FILE) is invalid: prizes.0.id: use lowercase letters`,
    );
  } finally {
    await database.drop();
  }
});

it('gives up on a database it cannot reach once DATABASE_CONNECT_RETRY_MS has passed, naming the cause', async () => {
  const { code, output } = await runToExit({
    DATABASE_URL: `postgres://nobody:pa55word-not-logged@127.0.0.1:${await freePort()}/gifts`,
    DATABASE_CONNECT_RETRY_MS: '1000',
  });
  expect(code).toBe(1);
  expect(output).toMatch(
    /cannot reach the database \(PostgreSQL at 127\.0\.0\.1:\d+\/gifts\), attempt 1: connect ECONNREFUSED [^\n]*; next in 250 ms/,
  );
  expect(output).toMatch(
    /cannot reach the database \(PostgreSQL at 127\.0\.0\.1:\d+\/gifts\) within 1000 ms \(DATABASE_CONNECT_RETRY_MS\): connect ECONNREFUSED/,
  );
  expect(output).not.toContain('pa55word');
});

it('waits for a PostgreSQL that starts after it, then serves', async () => {
  const cluster = await startCluster();
  try {
    await cluster.pause();
    const launched = await launchApi({
      DATABASE_URL: cluster.url.replace('postgres@', 'postgres:pa55word-not-logged@'),
      DATABASE_CONNECT_RETRY_MS: '120000',
    });
    // The database comes up once the API has been refused at least once.
    await untilSaid(launched, 'cannot reach the database (PostgreSQL at 127.0.0.1:');
    await cluster.resume();
    const api = await untilHealthy(launched);
    try {
      const ready = await fetch(`${api.baseUrl}/api/health/ready`);
      expect(ready.status).toBe(200);
      expect(api.output()).not.toContain('pa55word');
    } finally {
      expect(await api.stop()).toBe(0);
    }
  } finally {
    await cluster.stop();
  }
});

/** Gifts `won` are still there, served by the API at `baseUrl`. */
async function expectGifts(baseUrl: string, won: Awaited<ReturnType<typeof playOnce>>[]): Promise<void> {
  for (const { gift } of won)
    expect(await fetch(`${baseUrl}/api/gifts/${gift.giftId}`).then((response) => response.json())).toEqual(gift);
}

// One PGlite folder through a graceful restart, a second process refused while one holds it, and a
// kill -9 of the holder: each start after the first finds the folder as the one before left it.
it('keeps its PGlite data across a graceful restart and a kill -9, seeds only once, and refuses a second process on the folder, naming the folder and the holder', async () => {
  const env = { PGLITE_DATA_DIR: join(folder, 'pglite'), GAME_WIN_RATE: '1' };
  const first = await startApi(env);
  const won = [await playOnce(first.baseUrl)];
  expect(await first.stop()).toBe(0);

  const second = await startApi(env);
  try {
    await expectGifts(second.baseUrl, won);
    won.push(await playOnce(second.baseUrl));
    const refused = await runToExit(env);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain(
      `The PGlite data folder ${env.PGLITE_DATA_DIR} is in use by process ${second.child.pid}`,
    );
    expect(refused.output).toContain('Only one API process may use a PGlite data folder');
  } finally {
    second.child.kill('SIGKILL');
    await new Promise((resolve) => second.child.once('exit', resolve));
  }

  // The lock the killed process held is recovered, and what it wrote is not lost.
  const third = await startApi(env);
  try {
    await expectGifts(third.baseUrl, won);
  } finally {
    expect(await third.stop()).toBe(0);
  }

  // The catalogue was not seeded again over the stock the wins used.
  const catalogue = await loadCatalogue(join(API_ROOT, 'catalogue.json'));
  const db = await openPglite(env.PGLITE_DATA_DIR);
  try {
    const [stock] = await db.query<{ total: number }>('SELECT sum(stock)::int AS total FROM prizes');
    expect(stock?.total).toBe(catalogue.prizes.reduce((sum, prize) => sum + prize.stock, 0) - won.length);
  } finally {
    await db.close();
  }
  // Three API processes start one after another, each opening PGlite and checking its migrations.
}, 150_000);
