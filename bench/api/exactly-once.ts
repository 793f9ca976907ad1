/**
 * The exactly-once check of section 4, against the database: no gift with two completed
 * sessions, every gift redeemed, every 200 answer's voucher the stored one, a repeat's answer the
 * same as the first, no 409 to the completed session's own visitor and email, nothing but 200/409.
 */
import { Client } from 'pg';
import { type Server } from './servers';

export interface Session {
  gift: number;
  redeemId: string;
  visitor: string;
  email: string;
}

export interface Attempt {
  session: Session;
  api: Server;
  status: number;
  voucherCode?: string;
  redeemedAt?: string;
}

interface Stored {
  status: string;
  voucherCode: string | null;
}

export async function readSessions(
  databaseUrl: string,
  giftIds: string[],
): Promise<{ sessions: Map<string, Stored>; doubles: number; unredeemed: number }> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const rows = await client.query<{ id: string; status: string; voucher_code: string | null }>(
      'SELECT id, status, voucher_code FROM redeem_sessions WHERE gift_id = ANY($1)',
      [giftIds],
    );
    const doubles = await client.query(
      "SELECT gift_id FROM redeem_sessions WHERE status = 'completed' AND gift_id = ANY($1) GROUP BY gift_id HAVING count(*) > 1",
      [giftIds],
    );
    const unredeemed = await client.query("SELECT id FROM gifts WHERE id = ANY($1) AND status <> 'redeemed'", [
      giftIds,
    ]);
    const sessions = new Map(rows.rows.map((row) => [row.id, { status: row.status, voucherCode: row.voucher_code }]));
    return { sessions, doubles: doubles.rowCount ?? 0, unredeemed: unredeemed.rowCount ?? 0 };
  } finally {
    await client.end();
  }
}

export function verify(attempts: Attempt[], stored: Awaited<ReturnType<typeof readSessions>>, gifts: number): string[] {
  const problems: string[] = [];
  if (stored.doubles > 0) problems.push(`${stored.doubles} gift(s) have two completed sessions`);
  if (stored.unredeemed > 0)
    problems.push(`${stored.unredeemed} gift(s) were not redeemed although every gift had a completion`);
  const winners = new Map<number, Set<string>>();
  for (const attempt of attempts) {
    const row = stored.sessions.get(attempt.session.redeemId);
    const completed = row?.status === 'completed';
    if (attempt.status === 200) {
      if (!completed) problems.push(`a 200 answer for a session stored as ${row?.status ?? 'missing'}`);
      else if (row.voucherCode !== attempt.voucherCode)
        problems.push('a 200 answer whose voucher differs from the stored one');
      const set = winners.get(attempt.session.gift) ?? new Set<string>();
      winners.set(attempt.session.gift, set.add(attempt.session.redeemId));
    } else if (attempt.status === 409) {
      if (completed)
        problems.push('a 409 answer to the completed session’s own visitor and email (a repeat must get the voucher)');
    } else {
      problems.push(`unexpected status ${attempt.status} (${attempt.api.name})`);
    }
  }
  for (const [gift, sessions] of winners)
    if (sessions.size > 1) problems.push(`gift ${gift}: ${sessions.size} sessions answered 200`);
  if (winners.size !== gifts) problems.push(`${gifts - winners.size} gift(s) without any 200 answer`);
  // Repeats: the same session's 200 answers all carry the same voucher and time.
  const answers = new Map<string, string>();
  for (const attempt of attempts) {
    if (attempt.status !== 200) continue;
    const seen = answers.get(attempt.session.redeemId);
    const answer = `${attempt.voucherCode} ${attempt.redeemedAt}`;
    if (seen !== undefined && seen !== answer) problems.push('a repeated completion returned another voucher');
    answers.set(attempt.session.redeemId, answer);
  }
  return [...new Set(problems)];
}
