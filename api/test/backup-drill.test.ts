/**
 * The restore drill of docs/operations.md, on the test run's PostgreSQL: gifts won and vouchers
 * issued through a real API process survive the guide's pg_dump, a dropped database and the
 * guide's pg_restore, read back unchanged by a new process; and the guide prints those commands.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ADMIN_URL_ENV } from 'testbed/postgres';
import { BACKUP_COMMANDS } from '../scripts/backup-commands';
import { runBackupDrill } from '../scripts/backup-drill';

const OPERATIONS_GUIDE = join(__dirname, '..', '..', 'docs', 'operations.md');

it('restores every gift, voucher and open session unchanged after a dump, a drop and a restore', async () => {
  const adminUrl = process.env[ADMIN_URL_ENV] ?? '';
  const report = await runBackupDrill({ adminUrl, log: (line) => console.log(`[backup drill] ${line}`) });
  console.log(`[backup drill] ${JSON.stringify(report)}`);
  expect(report).toMatchObject({ postgresMajor: expect.any(Number), gifts: 6, vouchers: 3, openSessions: 1 });
  // A list per visitor, each gift, each redeem session.
  expect(report.answers).toBe(3 + 6 + 4);
  expect(report.dumpBytes).toBeGreaterThan(0);
}, 240_000);

it('runs the commands the operations guide prints, word for word', () => {
  const guide = readFileSync(OPERATIONS_GUIDE, 'utf8');
  for (const command of Object.values(BACKUP_COMMANDS))
    expect([command, guide.includes(command)]).toEqual([command, true]);
});
