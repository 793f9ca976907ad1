/**
 * One play in one transaction: limits, the outcome decided here, and on a win a unit of stock
 * (a conditional UPDATE, never below zero) and a gift. A repeated idempotency key gets the first
 * answer; its row is claimed first, so a concurrent repeat waits instead of playing again.
 */
import { randomInt } from 'node:crypto';
import { type PlayResult, type PrizeValue } from 'shared/api/contract';
import { type AppConfig } from '../../config';
import { newId } from '../../codes';
import { type Database, type Queryable } from '../../db/database';
import { consume } from '../../limits/rate-limit';
import { addDays, dayWindow } from '../../time';
import { visitorHash } from '../../http/visitor';
import { toGiftView } from '../gifts/gift-view';

const RANDOM_RANGE = 1_000_000;
// Each failed attempt means a prize reached zero stock; the catalogue is short.
const MAX_PRIZE_ATTEMPTS = 10;

interface PrizeRow {
  [column: string]: unknown;
  id: string;
  name: string;
  description: string;
  value: PrizeValue;
  icon: string;
}

export interface Player {
  visitorId: string;
  ip: string;
  idempotencyKey?: string;
}

export const PLAY_KEY_TTL_DAYS = 2;

function decidesWin(winRate: number): boolean {
  return randomInt(RANDOM_RANGE) < Math.round(winRate * RANDOM_RANGE);
}

function pickWeighted<T extends { weight: number }>(candidates: T[]): T | undefined {
  const total = candidates.reduce((sum, candidate) => sum + candidate.weight, 0);
  if (total <= 0) return undefined;
  let ticket = randomInt(total);
  return candidates.find((candidate) => (ticket -= candidate.weight) < 0);
}

async function inStock(tx: Queryable): Promise<boolean> {
  const rows = await tx.query('SELECT 1 FROM prizes WHERE stock > 0 LIMIT 1');
  return rows.length > 0;
}

/** Takes one unit of a weighted-random prize that has stock; undefined when none is left. */
async function takePrize(tx: Queryable): Promise<PrizeRow | undefined> {
  for (let attempt = 0; attempt < MAX_PRIZE_ATTEMPTS; attempt += 1) {
    const candidates = await tx.query<{ id: string; weight: number }>(
      'SELECT id, weight FROM prizes WHERE stock > 0 ORDER BY id',
    );
    const chosen = pickWeighted(candidates);
    if (!chosen) return undefined;
    const [taken] = await tx.query<PrizeRow>(
      `UPDATE prizes SET stock = stock - 1 WHERE id = $1 AND stock > 0
       RETURNING id, name, description, value, icon`,
      [chosen.id],
    );
    if (taken) return taken;
  }
  return undefined;
}

/** `onPlayed` hears of a play once it has committed; not of a repeat answered from its key. */
export async function play(
  db: Database,
  config: AppConfig,
  player: Player,
  now: Date,
  onPlayed: (result: PlayResult) => void = () => undefined,
): Promise<PlayResult> {
  // A transaction may be attempted again (a deadlock): what counts is its last attempt.
  let played = false;
  const result = await db.transaction(async (tx) => {
    played = false;
    const { idempotencyKey } = player;
    if (idempotencyKey === undefined) {
      played = true;
      return playOnce(tx, config, player, now);
    }
    const owner = visitorHash(player.visitorId);
    const claimed = await tx.query(
      `INSERT INTO plays (visitor_hash, idempotency_key, created_at) VALUES ($1, $2, $3::timestamptz)
       ON CONFLICT (visitor_hash, idempotency_key) DO NOTHING RETURNING 1`,
      [owner, idempotencyKey, now],
    );
    if (claimed.length === 0) {
      // Played before (committed, since the claim waited for it): its answer, nothing spent.
      const [earlier] = await tx.query<{ result: PlayResult | null }>(
        'SELECT result FROM plays WHERE visitor_hash = $1 AND idempotency_key = $2',
        [owner, idempotencyKey],
      );
      if (earlier?.result) return earlier.result;
    }
    const fresh = await playOnce(tx, config, player, now);
    await tx.query('UPDATE plays SET result = $3::jsonb WHERE visitor_hash = $1 AND idempotency_key = $2', [
      owner,
      idempotencyKey,
      JSON.stringify(fresh),
    ]);
    played = true;
    return fresh;
  });
  if (played) onPlayed(result);
  return result;
}

export async function prunePlays(db: Queryable, before: Date): Promise<void> {
  await db.query('DELETE FROM plays WHERE created_at < $1::timestamptz', [before]);
}

async function playOnce(tx: Queryable, config: AppConfig, player: Player, now: Date): Promise<PlayResult> {
  const day = dayWindow(now);
  const comeBack = 'Come back tomorrow for more plays.';
  const visitorLeft = await consume(
    tx,
    {
      scope: 'play:visitor',
      subject: player.visitorId,
      limit: config.limits.playsPerVisitorPerDay,
      window: day,
      message: `You have used all of today's plays. ${comeBack}`,
    },
    now,
  );
  const ipLeft = await consume(
    tx,
    {
      scope: 'play:ip',
      subject: player.ip,
      limit: config.limits.playsPerIpPerDay,
      window: day,
      message: `Too many plays from your network today. ${comeBack}`,
    },
    now,
  );
  const plays = { playsRemaining: Math.min(visitorLeft, ipLeft), playsResetAt: day.end.toISOString() };

  if (!decidesWin(config.gameWinRate)) return { outcome: 'lose', ...plays, soldOut: !(await inStock(tx)) };
  const prize = await takePrize(tx);
  if (!prize) return { outcome: 'lose', ...plays, soldOut: !(await inStock(tx)) };

  const giftId = newId();
  const expiresAt = addDays(now, config.giftTtlDays);
  await tx.query(
    `INSERT INTO gifts (id, prize_id, status, created_at, expires_at, visitor_hash)
     VALUES ($1, $2, 'available', $3::timestamptz, $4::timestamptz, $5)`,
    [giftId, prize.id, now, expiresAt, visitorHash(player.visitorId)],
  );
  const gift = toGiftView(
    {
      gift_id: giftId,
      gift_status: 'available',
      gift_created_at: now,
      gift_expires_at: expiresAt,
      redeemed_at: null,
      prize_id: prize.id,
      prize_name: prize.name,
      prize_description: prize.description,
      prize_value: prize.value,
      prize_icon: prize.icon,
    },
    now,
  );
  return { outcome: 'win', gift, ...plays };
}
