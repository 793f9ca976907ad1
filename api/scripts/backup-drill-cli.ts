/** `npm run backup-drill -w api -- [admin URL]`: exits 0 when every answer came back unchanged. */
import { runBackupDrill } from './backup-drill';

async function main(): Promise<number> {
  const adminUrl = process.argv[2] ?? process.env.ADMIN_DATABASE_URL;
  if (!adminUrl) {
    console.error('Usage: npm run backup-drill -w api -- <postgresql URL of a role that may CREATE DATABASE>');
    console.error('(or set ADMIN_DATABASE_URL)');
    return 2;
  }
  const report = await runBackupDrill({ adminUrl, log: (line) => console.log(line) });
  console.log(
    `restore drill passed on PostgreSQL ${report.postgresMajor}: ${report.gifts} gifts, ${report.vouchers} vouchers, ` +
      `${report.openSessions} open session(s), ${report.answers} answers unchanged after pg_dump, dropdb and pg_restore`,
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`restore drill failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
